// SPDX-License-Identifier: Apache-2.0
// mvt: Polybench-GPU MVT, x1 += A y1 and x2 += A^T y2 for an n x n float matrix.
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3` (see regen_ptx.sh).
// Plain CUDA C only: no calls, no local memory, no warp intrinsics.

// x1[i] += sum_j A[i][j] * y1[j]: each thread walks one row (strided across the warp).
extern "C" __global__ void mvt_kernel1(const float* a, float* x1, const float* y1, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        for (int j = 0; j < n; j++) x1[i] += a[i * n + j] * y1[j];
    }
}

// x2[i] += sum_j A[j][i] * y2[j]: each thread walks one column (coalesced across the warp).
extern "C" __global__ void mvt_kernel2(const float* a, float* x2, const float* y2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        for (int j = 0; j < n; j++) x2[i] += a[j * n + i] * y2[j];
    }
}
