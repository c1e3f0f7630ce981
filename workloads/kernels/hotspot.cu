// SPDX-License-Identifier: Apache-2.0
// hotspot: Rodinia HOTSPOT, transient thermal simulation of a chip on an n x n grid; each
// launch advances `iteration` time steps with the pyramid (ghost-zone) scheme in shared
// memory (Rodinia's double literals are written as float literals here).
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3` (see regen_ptx.sh).
// Plain CUDA C only: no calls, no local memory, no warp intrinsics.

#define HS_BLOCK 16
#define HS_IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))

// Block (16,16); grid ceil(n / (16 - 2*pyramid_height)) in x and y.
extern "C" __global__ void calculate_temp(int iteration, const float* power, const float* temp_src,
                                          float* temp_dst, int grid_cols, int grid_rows,
                                          int border_cols, int border_rows, float Cap, float Rx,
                                          float Ry, float Rz, float step)
{
    __shared__ float temp_on_cuda[HS_BLOCK][HS_BLOCK];
    __shared__ float power_on_cuda[HS_BLOCK][HS_BLOCK];
    __shared__ float temp_t[HS_BLOCK][HS_BLOCK];
    float amb_temp = 80.0f;
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    float step_div_Cap = step / Cap;
    float Rx_1 = 1 / Rx, Ry_1 = 1 / Ry, Rz_1 = 1 / Rz;
    int small_block_rows = HS_BLOCK - iteration * 2;
    int small_block_cols = HS_BLOCK - iteration * 2;
    int blkY = small_block_rows * by - border_rows;
    int blkX = small_block_cols * bx - border_cols;
    int blkYmax = blkY + HS_BLOCK - 1;
    int blkXmax = blkX + HS_BLOCK - 1;
    int yidx = blkY + ty;
    int xidx = blkX + tx;
    int index = grid_cols * yidx + xidx;
    if (HS_IN_RANGE(yidx, 0, grid_rows - 1) && HS_IN_RANGE(xidx, 0, grid_cols - 1)) {
        temp_on_cuda[ty][tx] = temp_src[index];
        power_on_cuda[ty][tx] = power[index];
    }
    __syncthreads();
    int validYmin = (blkY < 0) ? -blkY : 0;
    int validYmax = (blkYmax > grid_rows - 1) ? HS_BLOCK - 1 - (blkYmax - grid_rows + 1) : HS_BLOCK - 1;
    int validXmin = (blkX < 0) ? -blkX : 0;
    int validXmax = (blkXmax > grid_cols - 1) ? HS_BLOCK - 1 - (blkXmax - grid_cols + 1) : HS_BLOCK - 1;
    int N = ty - 1, S = ty + 1, W = tx - 1, E = tx + 1;
    N = (N < validYmin) ? validYmin : N;
    S = (S > validYmax) ? validYmax : S;
    W = (W < validXmin) ? validXmin : W;
    E = (E > validXmax) ? validXmax : E;
    bool computed = false;
    for (int i = 0; i < iteration; i++) {
        computed = false;
        if (HS_IN_RANGE(tx, i + 1, HS_BLOCK - i - 2) && HS_IN_RANGE(ty, i + 1, HS_BLOCK - i - 2) &&
            HS_IN_RANGE(tx, validXmin, validXmax) && HS_IN_RANGE(ty, validYmin, validYmax)) {
            computed = true;
            temp_t[ty][tx] = temp_on_cuda[ty][tx] +
                step_div_Cap * (power_on_cuda[ty][tx] +
                                (temp_on_cuda[S][tx] + temp_on_cuda[N][tx] - 2.0f * temp_on_cuda[ty][tx]) * Ry_1 +
                                (temp_on_cuda[ty][E] + temp_on_cuda[ty][W] - 2.0f * temp_on_cuda[ty][tx]) * Rx_1 +
                                (amb_temp - temp_on_cuda[ty][tx]) * Rz_1);
        }
        __syncthreads();
        if (i == iteration - 1) break;
        if (computed) temp_on_cuda[ty][tx] = temp_t[ty][tx];
        __syncthreads();
    }
    if (computed) temp_dst[index] = temp_t[ty][tx];
}
