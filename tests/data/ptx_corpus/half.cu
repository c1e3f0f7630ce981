// Half precision arithmetic (cuda_fp16.h).
#include <cuda_fp16.h>
__global__ void half_axpy(const __half* x, __half* y, __half a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __hfma(a, x[i], y[i]);
}
__global__ void half2_mul(const __half2* a, const __half2* b, __half2* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = __hmul2(a[i], b[i]);
}
__global__ void half_convert(const float* f, __half* h, float* back, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        h[i] = __float2half_rn(f[i]);
        back[i] = __half2float(h[i]);
    }
}
