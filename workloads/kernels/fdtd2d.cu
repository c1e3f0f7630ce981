// SPDX-License-Identifier: Apache-2.0
// fdtd2d: Polybench-GPU FDTD-2D, a 2-D finite-difference time-domain step as three kernels
// launched once per time step: ey is (n+1) x n, ex is n x (n+1), hz is n x n.
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3` (see regen_ptx.sh).
// Plain CUDA C only: no calls, no local memory, no warp intrinsics.

// Every kernel: block (32,8), grid (ceil(n/32), ceil(n/8)); j is the column, i the row.
extern "C" __global__ void fdtd_step1(const float* fict, float* ex, float* ey, float* hz, int n, int t)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if ((i < n) && (j < n)) {
        if (i == 0) {
            ey[i * n + j] = fict[t];
        } else {
            ey[i * n + j] = ey[i * n + j] - 0.5f * (hz[i * n + j] - hz[(i - 1) * n + j]);
        }
    }
}

extern "C" __global__ void fdtd_step2(float* ex, float* ey, float* hz, int n, int t)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if ((i < n) && (j < n) && (j > 0))
        ex[i * (n + 1) + j] = ex[i * (n + 1) + j] - 0.5f * (hz[i * n + j] - hz[i * n + (j - 1)]);
}

extern "C" __global__ void fdtd_step3(float* ex, float* ey, float* hz, int n, int t)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if ((i < n) && (j < n))
        hz[i * n + j] = hz[i * n + j] - 0.7f * (ex[i * (n + 1) + (j + 1)] - ex[i * (n + 1) + j] +
                                               ey[(i + 1) * n + j] - ey[i * n + j]);
}
