// SPDX-License-Identifier: Apache-2.0
// 3dconv: Polybench-GPU 3DCONV, 3x3x3 convolution of an n x n x n float volume, one launch
// per interior plane i (border untouched; the weights and taps are Polybench's, verbatim).
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3` (see regen_ptx.sh).
// Plain CUDA C only: no calls, no local memory, no warp intrinsics.

// Launch with block (32,8) and grid (ceil(n/32), ceil(n/8)) for each i in [1, n-2].
extern "C" __global__ void conv3d(const float* A, float* B, int n, int i)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    float c11 = +2, c21 = +5, c31 = -8;
    float c12 = -3, c22 = +6, c32 = -9;
    float c13 = +4, c23 = +7, c33 = +10;
    int nn = n * n;
    if ((i < n - 1) && (j < n - 1) && (k < n - 1) && (i > 0) && (j > 0) && (k > 0)) {
        B[i * nn + j * n + k] =
            c11 * A[(i - 1) * nn + (j - 1) * n + (k - 1)] + c13 * A[(i + 1) * nn + (j - 1) * n + (k - 1)] +
            c21 * A[(i - 1) * nn + (j - 1) * n + (k - 1)] + c23 * A[(i + 1) * nn + (j - 1) * n + (k - 1)] +
            c31 * A[(i - 1) * nn + (j - 1) * n + (k - 1)] + c33 * A[(i + 1) * nn + (j - 1) * n + (k - 1)] +
            c12 * A[(i + 0) * nn + (j - 1) * n + (k + 0)] + c22 * A[(i + 0) * nn + (j + 0) * n + (k + 0)] +
            c32 * A[(i + 1) * nn + (j + 1) * n + (k + 0)] + c11 * A[(i - 1) * nn + (j - 1) * n + (k + 1)] +
            c13 * A[(i + 1) * nn + (j - 1) * n + (k + 1)] + c21 * A[(i - 1) * nn + (j + 0) * n + (k + 1)] +
            c23 * A[(i + 1) * nn + (j + 0) * n + (k + 1)] + c31 * A[(i - 1) * nn + (j + 1) * n + (k + 1)] +
            c33 * A[(i + 1) * nn + (j + 1) * n + (k + 1)];
    }
}
