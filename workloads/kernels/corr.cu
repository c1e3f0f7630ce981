// SPDX-License-Identifier: Apache-2.0
// corr: Polybench-GPU CORR, the correlation matrix of n data points of m = n variables
// (0-based indices instead of Polybench's 1-based ones), as four kernels.
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3` (see regen_ptx.sh).
// Plain CUDA C only: no calls, no local memory, no warp intrinsics.

// mean[j] = sum_i data[i][j] / n: one thread per column (block 256).
extern "C" __global__ void corr_mean(float* mean, const float* data, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) {
        mean[j] = 0.0f;
        for (int i = 0; i < n; i++) mean[j] += data[i * n + j];
        mean[j] /= (float)n;
    }
}

// stddev[j] = sqrt(sum_i (data[i][j] - mean[j])^2 / n), 1 where it is <= eps (block 256).
extern "C" __global__ void corr_std(const float* mean, float* stddev, const float* data, int n,
                                    float eps)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) {
        stddev[j] = 0.0f;
        for (int i = 0; i < n; i++)
            stddev[j] += (data[i * n + j] - mean[j]) * (data[i * n + j] - mean[j]);
        stddev[j] /= (float)n;
        stddev[j] = sqrtf(stddev[j]);
        if (stddev[j] <= eps) stddev[j] = 1.0f;
    }
}

// Centres and scales every element (block (32,8), grid over columns x rows).
extern "C" __global__ void corr_reduce(const float* mean, const float* stddev, float* data, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if ((i < n) && (j < n)) {
        data[i * n + j] -= mean[j];
        data[i * n + j] /= (sqrtf((float)n) * stddev[j]);
    }
}

// symmat[j1][j2] = symmat[j2][j1] = sum_i data[i][j1] * data[i][j2]: thread j1 computes the
// upper triangle of its row (unbalanced, as in Polybench; block 256).
extern "C" __global__ void corr_corr(float* symmat, const float* data, int n)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x;
    if (j1 < n) {
        symmat[j1 * n + j1] = 1.0f;
        for (int j2 = j1 + 1; j2 < n; j2++) {
            symmat[j1 * n + j2] = 0.0f;
            for (int i = 0; i < n; i++) symmat[j1 * n + j2] += data[i * n + j1] * data[i * n + j2];
            symmat[j2 * n + j1] = symmat[j1 * n + j2];
        }
    }
}
