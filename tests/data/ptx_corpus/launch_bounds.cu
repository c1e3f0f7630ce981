// __launch_bounds__ with and without a minimum-blocks hint; .maxntid / .minnctapersm.
__global__ void __launch_bounds__(128) lb_saxpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * 128 + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void __launch_bounds__(256, 4) lb_daxpy(double a, const double* x, double* y, int n) {
    int i = blockIdx.x * 256 + threadIdx.x;
    if (i < n) y[i] = fma(a, x[i], y[i]);
}
__global__ void __launch_bounds__(1024, 1) lb_big_block(const int* in, int* out) {
    __shared__ int s[1024];
    s[threadIdx.x] = in[blockIdx.x * 1024 + threadIdx.x];
    __syncthreads();
    out[blockIdx.x * 1024 + threadIdx.x] = s[1023 - threadIdx.x];
}
__global__ void __launch_bounds__(64, 16) lb_poly(const float* x, float* y, int n) {
    int i = blockIdx.x * 64 + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = ((((v * 0.1f + 0.2f) * v + 0.3f) * v + 0.4f) * v + 0.5f);
    }
}
__global__ void __launch_bounds__(512, 2) lb_2d(float* img, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) img[y * w + x] = (float)(x ^ y);
}
