// Recursion whose activations each keep a local array live across the recursive call (the
// array is in local memory: its index is computed at run time), and recursive fib.
// Built with: nvcc -ptx -arch=sm_75 -O3 recursion_local.cu and, for recursion_local_debug.ptx,
// with -G (every function keeps its stack frame in local memory) (tests/system/test_ptx_calls.cpp).
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ int depth_sum(const int* buf, int d) {
    int local[8];
    for (int k = 0; k < 8; ++k) local[k] = buf[(d + k) & 15] + d;
    if (d == 0) return local[0];
    int r = depth_sum(buf, d - 1);
    return local[(d * 3 + buf[d]) & 7] + r;
}
__global__ void recurse(const int* buf, int* out) {
    out[threadIdx.x] = fib(threadIdx.x % 10) * 1000 + depth_sum(buf, threadIdx.x % 6);
}
