// SPDX-License-Identifier: Apache-2.0
// gesummv: Polybench-GPU GESUMMV, y = alpha*A*x + beta*B*x for n x n float matrices.
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3` (see regen_ptx.sh).
// Plain CUDA C only: no calls, no local memory, no warp intrinsics.

// One thread per row i walks row i of A and B (strided across the warp); tmp and y must be
// zeroed before the launch.
extern "C" __global__ void gesummv_kernel(const float* a, const float* b, const float* x, float* y,
                                          float* tmp, int n, float alpha, float beta)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        for (int j = 0; j < n; j++) {
            tmp[i] += a[i * n + j] * x[j];
            y[i] += b[i * n + j] * x[j];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
}
