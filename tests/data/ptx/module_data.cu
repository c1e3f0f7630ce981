// Module-scope data: a __constant__ table the host writes (cudaMemcpyToSymbol), an initialised
// __device__ table, a __device__ counter the host reads back (cudaMemcpyFromSymbol) and whose
// address it passes to a kernel (cudaGetSymbolAddress), an unreferenced variable.
// Built with: nvcc -ptx -arch=sm_75 -O3 module_data.cu (tests/system/test_module_data.cpp).
__constant__ float c_scale[4];
__device__ int d_table[8] = {3, -1, 4, 1, -5, 9, 2, -6};
__device__ unsigned d_count;
__device__ double d_unused[1024];
__device__ const double d_offsets[2] = {0.5, -0.25};

extern "C" __global__ void scale_table(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i] * c_scale[i & 3] + d_table[i & 7] + (float)d_offsets[i & 1];
        out[i] = v;
        if (v > 0.f) atomicAdd(&d_count, 1u);
    }
}

extern "C" __global__ void add_through_pointer(unsigned* counter, int k) {
    atomicAdd(counter, (unsigned)k);
}
