// SPDX-License-Identifier: Apache-2.0
// 2dconv: Polybench-GPU 2DCONV, 3x3 convolution of an n x n float image (border untouched).
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3 -o 2dconv.ptx 2dconv.cu`
// (see regen_ptx.sh). Plain CUDA C only: no calls, no local memory, no warp intrinsics.

// Launch with block (32,8) and grid (ceil(n/32), ceil(n/8)); B's border is not written.
extern "C" __global__ void conv2d(const float* A, float* B, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    float c11 = +0.2f, c21 = +0.5f, c31 = -0.8f;
    float c12 = -0.3f, c22 = +0.6f, c32 = -0.9f;
    float c13 = +0.4f, c23 = +0.7f, c33 = +0.10f;
    if ((i < n - 1) && (j < n - 1) && (i > 0) && (j > 0)) {
        B[i * n + j] = c11 * A[(i - 1) * n + (j - 1)] + c21 * A[(i - 1) * n + (j + 0)] +
                       c31 * A[(i - 1) * n + (j + 1)] + c12 * A[(i + 0) * n + (j - 1)] +
                       c22 * A[(i + 0) * n + (j + 0)] + c32 * A[(i + 0) * n + (j + 1)] +
                       c13 * A[(i + 1) * n + (j - 1)] + c23 * A[(i + 1) * n + (j + 0)] +
                       c33 * A[(i + 1) * n + (j + 1)];
    }
}
