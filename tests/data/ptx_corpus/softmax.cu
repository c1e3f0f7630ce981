// Row-wise softmax and layer norm, one warp or one block per row, with fast exponentials.
__device__ __forceinline__ float warp_max(float v) {
    for (int o = 16; o; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
    return v;
}
__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}
__global__ void softmax_warp(const float* x, float* y, int rows, int cols) {
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x & 31;
    if (row >= rows) return;
    const float* xr = x + (size_t)row * cols;
    float m = -1e30f;
    for (int c = lane; c < cols; c += 32) m = fmaxf(m, xr[c]);
    m = warp_max(m);
    float s = 0.f;
    for (int c = lane; c < cols; c += 32) s += __expf(xr[c] - m);
    s = warp_sum(s);
    for (int c = lane; c < cols; c += 32) y[(size_t)row * cols + c] = __expf(xr[c] - m) / s;
}
__global__ void layernorm_block(const float* x, float* y, const float* gamma, const float* beta, int cols, float eps) {
    __shared__ float red[32];
    const float* xr = x + (size_t)blockIdx.x * cols;
    float s = 0.f, s2 = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) { s += xr[c]; s2 += xr[c] * xr[c]; }
    s = warp_sum(s);
    s2 = warp_sum(s2);
    if ((threadIdx.x & 31) == 0) { red[threadIdx.x / 32] = s; }
    __syncthreads();
    if (threadIdx.x < 32) {
        float v = threadIdx.x < blockDim.x / 32 ? red[threadIdx.x] : 0.f;
        v = warp_sum(v);
        if (threadIdx.x == 0) red[0] = v;
    }
    __syncthreads();
    float mean = red[0] / cols;
    __syncthreads();
    if ((threadIdx.x & 31) == 0) red[threadIdx.x / 32] = s2;
    __syncthreads();
    if (threadIdx.x < 32) {
        float v = threadIdx.x < blockDim.x / 32 ? red[threadIdx.x] : 0.f;
        v = warp_sum(v);
        if (threadIdx.x == 0) red[0] = v;
    }
    __syncthreads();
    float var = red[0] / cols - mean * mean;
    float inv = rsqrtf(var + eps);
    for (int c = threadIdx.x; c < cols; c += blockDim.x) y[(size_t)blockIdx.x * cols + c] = (xr[c] - mean) * inv * gamma[c] + beta[c];
}
__global__ void cross_entropy(const float* logits, const int* labels, float* loss, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float m = -1e30f;
    for (int c = 0; c < cols; ++c) m = fmaxf(m, logits[r * cols + c]);
    float s = 0.f;
    for (int c = 0; c < cols; ++c) s += __expf(logits[r * cols + c] - m);
    loss[r] = __logf(s) + m - logits[r * cols + labels[r]];
}
__global__ void adam_step(float* p, const float* g, float* m, float* v, float lr, float b1, float b2, float eps, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        m[i] = b1 * m[i] + (1 - b1) * g[i];
        v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i];
        p[i] -= lr * m[i] * rsqrtf(v[i] + eps);
    }
}
