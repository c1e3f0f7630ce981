// SPDX-License-Identifier: Apache-2.0
// lib: LIBOR market model Monte Carlo (GPGPU-Sim ISPASS-2009 suite LIB, M. Giles' swaption
// portfolio): per path, NMAT time steps of the NN forward rates driven by the path's normal
// draws, then the value of a portfolio of NOPT swaptions (Pathcalc_Portfolio_KernelGPU2, the
// value without Greeks). Block 64 threads, a grid-stride loop over the paths.
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3` (see regen_ptx.sh).
// Plain CUDA C only: no calls, no local memory, no warp intrinsics. The forward rates L of a
// path live in shared memory (the original: local memory); the draws z come from a global
// array (the suite's version uses the constant 0.3); the constants are kernel parameters or
// global arrays (the original: constant memory); B and S are not kept in arrays: options are
// valued as their maturity is reached (they are sorted by maturity, so the order of the sums
// is the original's).

#define NN 80
#define NMAT 40
#define NOPT 15
#define BLOCK 64

extern "C" __global__ void Pathcalc_Portfolio_KernelGPU2(int npath, float delta, const float* lambda,
                                                         const int* maturities, const float* swaprates,
                                                         const float* z, float* d_v)
{
    __shared__ float Ls[NN * BLOCK];
    const int tid = blockDim.x * blockIdx.x + threadIdx.x;
    const int threadN = blockDim.x * gridDim.x;
    float* L = Ls + threadIdx.x;  // L[i] is L[i * BLOCK]: one bank per thread

    for (int path = tid; path < npath; path += threadN) {
        for (int i = 0; i < NN; i++) L[i * BLOCK] = 0.05f;

        // path_calc
        for (int n = 0; n < NMAT; n++) {
            float sqez = sqrtf(delta) * z[n * npath + path];
            float v = 0.0f;
            for (int i = n + 1; i < NN; i++) {
                // Explicit roundings: nvcc would contract the peeled and the unrolled
                // iterations differently, and the CPU reference must repeat every rounding.
                float lam = lambda[i - n - 1];
                float con1 = __fmul_rn(delta, lam);
                float li = L[i * BLOCK];
                v = __fadd_rn(v, __fdividef(__fmul_rn(con1, li), __fmaf_rn(delta, li, 1.0f)));
                float vrat = __expf(__fmaf_rn(con1, v, __fmul_rn(lam, __fmaf_rn(-0.5f, con1, sqez))));
                L[i * BLOCK] = __fmul_rn(li, vrat);
            }
        }

        // portfolio
        float b = 1.0f, s = 0.0f, v = 0.0f;
        int opt = 0;
        for (int n = NMAT; n < NN; n++) {
            b = b / (1.0f + delta * L[n * BLOCK]);
            s = s + delta * b;
            for (; opt < NOPT && maturities[opt] - 1 == n - NMAT; opt++) {
                float swapval = b + swaprates[opt] * s - 1.0f;
                if (swapval < 0.0f) v += -100.0f * swapval;
            }
        }
        b = 1.0f;
        for (int n = 0; n < NMAT; n++) b = b / (1.0f + delta * L[n * BLOCK]);
        d_v[path] = b * v;
    }
}
