// SPDX-License-Identifier: Apache-2.0
// stencil2d: 5-point Jacobi iteration on an n x n float grid with 16 x 16 shared-memory tiles
// plus a one-cell halo; the border cells are copied unchanged (Dirichlet boundary).
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3` (see regen_ptx.sh).
// Plain CUDA C only: no calls, no local memory, no warp intrinsics.

#define ST_TILE 16

// Block (16,16), grid (ceil(n/16), ceil(n/16)):
// out = c0*centre + c1*((north + south) + (west + east)) in the interior.
extern "C" __global__ void stencil2d(const float* in, float* out, int n, float c0, float c1)
{
    __shared__ float tile[ST_TILE + 2][ST_TILE + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int j = blockIdx.x * ST_TILE + tx;
    int i = blockIdx.y * ST_TILE + ty;
    bool inside = i < n && j < n;
    if (inside) {
        tile[ty + 1][tx + 1] = in[i * n + j];
        if (tx == 0 && j > 0) tile[ty + 1][0] = in[i * n + j - 1];
        if (tx == ST_TILE - 1 && j + 1 < n) tile[ty + 1][tx + 2] = in[i * n + j + 1];
        if (ty == 0 && i > 0) tile[0][tx + 1] = in[(i - 1) * n + j];
        if (ty == ST_TILE - 1 && i + 1 < n) tile[ty + 2][tx + 1] = in[(i + 1) * n + j];
    }
    __syncthreads();
    if (inside) {
        float centre = tile[ty + 1][tx + 1];
        if (i == 0 || j == 0 || i == n - 1 || j == n - 1) {
            out[i * n + j] = centre;
        } else {
            out[i * n + j] = c0 * centre + c1 * ((tile[ty][tx + 1] + tile[ty + 2][tx + 1]) +
                                                 (tile[ty + 1][tx] + tile[ty + 1][tx + 2]));
        }
    }
}
