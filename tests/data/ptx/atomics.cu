// Test kernel: assorted atomics on global and shared memory.
extern "C" __global__ void atomics(int* gi, unsigned* gu, float* gf, unsigned long long* g64) {
    __shared__ unsigned hist[32];
    int t = threadIdx.x;
    if (t < 32) hist[t] = 0;
    __syncthreads();
    atomicAdd(&hist[t % 32], 1u);
    atomicMin(gi, t - 10);
    atomicMax(gi + 1, t);
    atomicExch(gi + 2, t);
    atomicCAS(gi + 3, t, t + 1);
    atomicAdd(gf, 1.5f);
    atomicInc(gu, 100u);
    atomicDec(gu + 1, 100u);
    atomicAnd(gu + 2, ~(1u << (t % 32)));
    atomicOr(gu + 3, 1u << (t % 32));
    atomicXor(gu + 4, t);
    atomicAdd(g64, (unsigned long long)t);
    __syncthreads();
    if (t < 32) gu[8 + t] = hist[t];
}
