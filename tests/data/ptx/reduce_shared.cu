// Test kernel: shared-memory tree reduction with bar.sync, plus dynamic shared memory.
extern "C" __global__ void reduce_shared(const int* in, int* out, int n) {
    __shared__ int buf[256];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    buf[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) buf[tid] += buf[tid + s];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(out, buf[0]);
}
extern "C" __global__ void dyn_shared(const float* in, float* out) {
    extern __shared__ float dbuf[];
    __shared__ double sfix[3];
    int t = threadIdx.x;
    dbuf[t] = in[t];
    if (t < 3) sfix[t] = t;
    __syncthreads();
    out[t] = dbuf[blockDim.x - 1 - t] + (float)sfix[t % 3];
}
