// __shared__ arrays in non-inlined device functions: per-CTA statics like a kernel's own, placed
// after the calling kernel's statics; dynamic shared memory comes after both.
__device__ __noinline__ float block_sum(float v) {
    __shared__ float buf[256];
    buf[threadIdx.x] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    float r = buf[0];
    __syncthreads();
    return r;
}

__device__ __noinline__ float dyn_neighbour(float v) {
    extern __shared__ float dyn[];
    dyn[threadIdx.x] = v;
    __syncthreads();
    float r = dyn[(threadIdx.x + 1) % blockDim.x];
    __syncthreads();
    return r;
}

// Block 256: out[block] = sum of the block's inputs + the kernel's own table entry (block % 32).
__global__ void func_block_sum(const float* in, float* out) {
    __shared__ int mine[32];
    if (threadIdx.x < 32) mine[threadIdx.x] = 1000 * threadIdx.x;
    __syncthreads();
    float s = block_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
    if (threadIdx.x == 0) out[blockIdx.x] = s + mine[blockIdx.x % 32];
}

// Block 256, dynamic shared memory 256 floats: out[i] = in[i + 1 within the block] + the block
// sum + the kernel's own table entry (thread % 16).
__global__ void func_mixed(const float* in, float* out) {
    __shared__ float own[16];
    if (threadIdx.x < 16) own[threadIdx.x] = 0.5f * threadIdx.x;
    __syncthreads();
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float n = dyn_neighbour(in[i]);
    float s = block_sum(in[i]);
    out[i] = n + s + own[threadIdx.x % 16];
}
