// SPDX-License-Identifier: Apache-2.0
// pathfinder: Rodinia PATHFINDER, dynamic programming over the rows of an int grid: each
// launch advances `iteration` rows with the pyramid (ghost-zone) scheme in shared memory.
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3` (see regen_ptx.sh).
// Plain CUDA C only: no calls, no local memory, no warp intrinsics.

#define PF_BLOCK 256
#define PF_HALO 1
#define PF_IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))
#define PF_MIN(a, b) ((a) <= (b) ? (a) : (b))

// Block 256; grid ceil(cols / (256 - 2*pyramid_height)).
extern "C" __global__ void dynproc_kernel(int iteration, const int* gpuWall, const int* gpuSrc,
                                          int* gpuResults, int cols, int rows, int startStep,
                                          int border)
{
    __shared__ int prev[PF_BLOCK];
    __shared__ int result[PF_BLOCK];
    int bx = blockIdx.x;
    int tx = threadIdx.x;
    int small_block_cols = PF_BLOCK - iteration * PF_HALO * 2;
    int blkX = small_block_cols * bx - border;
    int blkXmax = blkX + PF_BLOCK - 1;
    int xidx = blkX + tx;
    int validXmin = (blkX < 0) ? -blkX : 0;
    int validXmax = (blkXmax > cols - 1) ? PF_BLOCK - 1 - (blkXmax - cols + 1) : PF_BLOCK - 1;
    int W = tx - 1;
    int E = tx + 1;
    W = (W < validXmin) ? validXmin : W;
    E = (E > validXmax) ? validXmax : E;
    bool isValid = PF_IN_RANGE(tx, validXmin, validXmax);
    if (PF_IN_RANGE(xidx, 0, cols - 1)) prev[tx] = gpuSrc[xidx];
    __syncthreads();
    bool computed = false;
    for (int i = 0; i < iteration; i++) {
        computed = false;
        if (PF_IN_RANGE(tx, i + 1, PF_BLOCK - i - 2) && isValid) {
            computed = true;
            int left = prev[W];
            int up = prev[tx];
            int right = prev[E];
            int shortest = PF_MIN(left, up);
            shortest = PF_MIN(shortest, right);
            int index = cols * (startStep + i) + xidx;
            result[tx] = shortest + gpuWall[index];
        }
        __syncthreads();
        if (i == iteration - 1) break;
        if (computed) prev[tx] = result[tx];
        __syncthreads();
    }
    if (computed) gpuResults[xidx] = result[tx];
}
