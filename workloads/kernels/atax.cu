// SPDX-License-Identifier: Apache-2.0
// atax: Polybench-GPU ATAX, y = A^T (A x) for an n x n float matrix, as two kernels.
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3 -o atax.ptx atax.cu`
// (see regen_ptx.sh). Plain CUDA C only: no calls, no local memory, no warp intrinsics.

// tmp[i] = sum_j A[i][j] * x[j]: each thread walks one row (strided across the warp).
// tmp must be zeroed before the launch.
extern "C" __global__ void atax_kernel1(const float* A, const float* x, float* tmp, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        for (int j = 0; j < n; j++) tmp[i] += A[i * n + j] * x[j];
    }
}

// y[j] = sum_i A[i][j] * tmp[i]: each thread walks one column. y must be zeroed first.
extern "C" __global__ void atax_kernel2(const float* A, float* y, const float* tmp, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) {
        for (int i = 0; i < n; i++) y[j] += A[i * n + j] * tmp[i];
    }
}
