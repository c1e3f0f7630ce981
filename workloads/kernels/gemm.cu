// SPDX-License-Identifier: Apache-2.0
// gemm: Polybench-GPU GEMM, C = alpha*A*B + beta*C for n x n float matrices (no tiling).
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3` (see regen_ptx.sh).
// Plain CUDA C only: no calls, no local memory, no warp intrinsics.

// Launch with block (32,8) and grid (ceil(n/32), ceil(n/8)); one thread per C element.
extern "C" __global__ void gemm_kernel(const float* a, const float* b, float* c, int n,
                                       float alpha, float beta)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if ((i < n) && (j < n)) {
        c[i * n + j] *= beta;
        for (int k = 0; k < n; k++) c[i * n + j] += alpha * a[i * n + k] * b[k * n + j];
    }
}
