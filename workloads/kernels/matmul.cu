// SPDX-License-Identifier: Apache-2.0
// matmul: C = A x B for n x n row-major floats, 16x16 shared-memory tiles, guarded edges.
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3 -o matmul.ptx matmul.cu`
// (see regen_ptx.sh). Plain CUDA C only: no calls, no local memory, no warp intrinsics.

#define TILE 16

// Launch with block (16,16) and grid (ceil(n/16), ceil(n/16)).
extern "C" __global__ void matmul(const float* A, const float* B, float* C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    int tiles = (n + TILE - 1) / TILE;
    for (int t = 0; t < tiles; ++t) {
        int a_col = t * TILE + tx;
        int b_row = t * TILE + ty;
        As[ty][tx] = (row < n && a_col < n) ? A[row * n + a_col] : 0.0f;
        Bs[ty][tx] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < n && col < n) C[row * n + col] = acc;
}
