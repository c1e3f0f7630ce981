// SPDX-License-Identifier: Apache-2.0
// bicg: Polybench-GPU BICG, s = A^T r and q = A p for an n x n float matrix, as two kernels.
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3` (see regen_ptx.sh).
// Plain CUDA C only: no calls, no local memory, no warp intrinsics.

// s[j] = sum_i A[i][j] * r[i]: each thread walks one column (coalesced across the warp).
extern "C" __global__ void bicg_kernel1(const float* A, const float* r, float* s, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) {
        s[j] = 0.0f;
        for (int i = 0; i < n; i++) s[j] += A[i * n + j] * r[i];
    }
}

// q[i] = sum_j A[i][j] * p[j]: each thread walks one row (strided across the warp).
extern "C" __global__ void bicg_kernel2(const float* A, const float* p, float* q, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        q[i] = 0.0f;
        for (int j = 0; j < n; j++) q[i] += A[i * n + j] * p[j];
    }
}
