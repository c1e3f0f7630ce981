// printf and assert in kernels.
#include <cstdio>
#include <cassert>

__global__ void hello(int tag) {
    printf("block %d thread %d tag %d\n", blockIdx.x, threadIdx.x, tag);
}
__global__ void print_values(const float* x, const double* d, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && (i % 97) == 0) printf("x[%d]=%f d=%.3e p=%p c=%c s=%s\n", i, x[i], d[i], (void*)&x[i], 'A' + (i % 26), "ok");
}
__global__ void checked_index(const int* idx, int* out, int n, int m) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        assert(idx[i] >= 0 && idx[i] < m);
        out[i] = idx[i];
    }
}
__global__ void trap_on_nan(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        if (x[i] != x[i]) __trap();
        y[i] = x[i] * 2.f;
    }
}
__global__ void print_long(long long a, unsigned long long b) {
    if (threadIdx.x == 0 && blockIdx.x == 0) printf("%lld %llu %x %o\n", a, b, (unsigned)a, (unsigned)b);
}
