// Module-scope data: __device__ variables and arrays, __constant__ tables, addresses taken.
#include <cstdint>

__constant__ float c_coeffs[16];
__constant__ int c_n;
__constant__ float c_filter[9] = {1.f / 16, 2.f / 16, 1.f / 16, 2.f / 16, 4.f / 16, 2.f / 16, 1.f / 16, 2.f / 16, 1.f / 16};
__device__ int d_counter;
__device__ float d_table[256];
__device__ unsigned long long d_hist[16] = {0};
__device__ const double d_weights[4] = {0.1, 0.2, 0.3, 0.4};
__device__ int* d_ptr;

__global__ void poly_const(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float acc = 0.f, p = 1.f;
        for (int k = 0; k < 16; ++k) { acc += c_coeffs[k] * p; p *= x[i]; }
        y[i] = acc;
    }
}
__global__ void filter3x3(const float* in, float* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) return;
    float s = 0.f;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) s += c_filter[(dy + 1) * 3 + dx + 1] * in[(y + dy) * w + x + dx];
    out[y * w + x] = s;
}
__global__ void count_positive(const int* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < c_n && in[i] > 0) atomicAdd(&d_counter, 1);
}
__global__ void table_lookup(const unsigned char* idx, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = d_table[idx[i]];
}
__global__ void hist_device(const unsigned* keys, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&d_hist[keys[i] & 15], 1ull);
}
__global__ void weighted(const double* x, double* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = d_weights[i & 3] * x[i];
}
__global__ void through_pointer(int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d_ptr[i] = i;
}
