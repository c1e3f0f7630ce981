// Dense linear algebra: naive and tiled GEMM (float, double), GEMV, batched dot products.
template <typename T, int TILE>
__global__ void gemm_tiled(const T* A, const T* B, T* C, int M, int N, int K, T alpha, T beta) {
    __shared__ T As[TILE][TILE], Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    T acc = 0;
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        int ak = t * TILE + threadIdx.x, bk = t * TILE + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = row < M && ak < K ? A[row * K + ak] : T(0);
        Bs[threadIdx.y][threadIdx.x] = bk < K && col < N ? B[bk * N + col] : T(0);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = alpha * acc + beta * C[row * N + col];
}
__global__ void gemm_naive(const float* A, const float* B, float* C, int M, int N, int K) {
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float s = 0.f;
        for (int k = 0; k < K; ++k) s += A[row * K + k] * B[k * N + col];
        C[row * N + col] = s;
    }
}
__global__ void gemv_warp(const float* A, const float* x, float* y, int rows, int cols) {
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x & 31;
    if (row >= rows) return;
    float s = 0.f;
    for (int c = lane; c < cols; c += 32) s += A[(size_t)row * cols + c] * x[c];
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
    if (lane == 0) y[row] = s;
}
__global__ void gemm_register_blocked(const float* A, const float* B, float* C, int N) {
    int row = (blockIdx.y * blockDim.y + threadIdx.y) * 4, col = blockIdx.x * blockDim.x + threadIdx.x;
    float acc[4] = {0.f, 0.f, 0.f, 0.f};
    for (int k = 0; k < N; ++k) {
        float b = B[k * N + col];
#pragma unroll
        for (int r = 0; r < 4; ++r) acc[r] += A[(row + r) * N + k] * b;
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) C[(row + r) * N + col] = acc[r];
}
__global__ void batched_dot(const double* a, const double* b, double* out, int len) {
    __shared__ double s[128];
    const double* pa = a + (size_t)blockIdx.x * len;
    const double* pb = b + (size_t)blockIdx.x * len;
    double v = 0.0;
    for (int i = threadIdx.x; i < len; i += 128) v += pa[i] * pb[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int k = 64; k > 0; k >>= 1) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
template __global__ void gemm_tiled<float, 16>(const float*, const float*, float*, int, int, int, float, float);
template __global__ void gemm_tiled<float, 32>(const float*, const float*, float*, int, int, int, float, float);
template __global__ void gemm_tiled<double, 16>(const double*, const double*, double*, int, int, int, double, double);
template __global__ void gemm_tiled<int, 8>(const int*, const int*, int*, int, int, int, int, int);
