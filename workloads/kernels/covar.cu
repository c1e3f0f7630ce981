// SPDX-License-Identifier: Apache-2.0
// covar: Polybench-GPU COVAR, the covariance matrix of n data points of m = n variables
// (0-based indices instead of Polybench's 1-based ones), as three kernels.
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3` (see regen_ptx.sh).
// Plain CUDA C only: no calls, no local memory, no warp intrinsics.

// mean[j] = sum_i data[i][j] / float_n: one thread per column (block 256).
extern "C" __global__ void covar_mean(float* mean, const float* data, int n, float float_n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) {
        mean[j] = 0.0f;
        for (int i = 0; i < n; i++) mean[j] += data[i * n + j];
        mean[j] /= float_n;
    }
}

// data[i][j] -= mean[j] (block (32,8), grid over columns x rows).
extern "C" __global__ void covar_reduce(const float* mean, float* data, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if ((i < n) && (j < n)) data[i * n + j] -= mean[j];
}

// symmat[j1][j2] = symmat[j2][j1] = sum_i data[i][j1] * data[i][j2] for j2 >= j1 (block 256).
extern "C" __global__ void covar_covar(float* symmat, const float* data, int n)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x;
    if (j1 < n) {
        for (int j2 = j1; j2 < n; j2++) {
            symmat[j1 * n + j2] = 0.0f;
            for (int i = 0; i < n; i++) symmat[j1 * n + j2] += data[i * n + j1] * data[i * n + j2];
            symmat[j2 * n + j1] = symmat[j1 * n + j2];
        }
    }
}
