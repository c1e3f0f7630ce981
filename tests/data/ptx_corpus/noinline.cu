// Non-inlined device functions, recursion and function pointers.
__device__ __noinline__ float poly3(float x, float a, float b, float c) { return (a * x + b) * x + c; }
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
typedef float (*unary_fn)(float);
__device__ float square(float x) { return x * x; }
__device__ float negate(float x) { return -x; }
__device__ unary_fn fns[2] = {square, negate};

__global__ void call_poly(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = poly3(x[i], 1.f, 2.f, 3.f);
}
__global__ void call_fib(int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fib(i % 12);
}
__global__ void call_indirect(const float* x, float* y, const int* which, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = fns[which[i] & 1](x[i]);
}
__device__ __noinline__ void divergent_callee(int* out, int i) {
    if (i & 1) out[i] = i * 3;
    else out[i] = -i;
}
__global__ void call_divergent(int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) divergent_callee(out, i);
}
