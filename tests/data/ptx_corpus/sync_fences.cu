// Synchronisation: named barriers via __syncthreads_count/and/or, __syncwarp, memory fences
// of every scope, a last-block-done pattern.
__global__ void sync_counts(const int* in, int* out) {
    int p = in[blockIdx.x * blockDim.x + threadIdx.x] > 0;
    int c = __syncthreads_count(p);
    int a = __syncthreads_and(p);
    int o = __syncthreads_or(p);
    if (threadIdx.x == 0) out[blockIdx.x] = c + 10000 * a + 20000 * o;
}
__global__ void syncwarp_exchange(int* data) {
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = data[blockIdx.x * 256 + t];
    __syncwarp();
    data[blockIdx.x * 256 + t] = s[(t & ~31) | ((t + 1) & 31)];
}
__global__ void fences(int* a, volatile int* flag) {
    a[blockIdx.x] = blockIdx.x;
    __threadfence_block();
    __threadfence();
    __threadfence_system();
    if (threadIdx.x == 0) *flag = 1;
}
__device__ unsigned int retirement_count = 0;
__global__ void last_block_sum(const float* in, float* partial, float* total, int n) {
    __shared__ bool last;
    float v = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += in[i];
    for (int o = 16; o; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = v;
        __threadfence();
        unsigned ticket = atomicInc(&retirement_count, gridDim.x);
        last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        float s = 0.f;
        for (int b = 0; b < gridDim.x; ++b) s += partial[b];
        *total = s;
        retirement_count = 0;
    }
}
__global__ void clock_timing(const float* in, float* out, long long* cycles) {
    long long t0 = clock64();
    float v = in[threadIdx.x];
    for (int k = 0; k < 100; ++k) v = v * 1.0001f + 0.5f;
    out[threadIdx.x] = v;
    if (threadIdx.x == 0) cycles[blockIdx.x] = clock64() - t0 + clock();
}
__global__ void smid_record(int* sm, int* warp, int* lane) {
    unsigned s, w, l;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    sm[i] = s; warp[i] = w; lane[i] = l;
}
__global__ void globaltimer_read(unsigned long long* t) {
    unsigned long long v;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(v));
    t[blockIdx.x] = v;
}
__global__ void nanosleep_backoff(int* flag) {
    unsigned ns = 8;
    while (atomicCAS(flag, 0, 0) == 0 && ns < 1024) { __nanosleep(ns); ns *= 2; }
}
