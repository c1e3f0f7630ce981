// SPDX-License-Identifier: Apache-2.0
// pathfinder (Rodinia style): dynamic programming over rows with shared memory, a pyramid of
// rows per launch and ping-pong result buffers; checked against the CPU.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define BLOCK_SIZE 256
#define HALO 1
#define IN_RANGE(x, min, max) ((x) >= (min) && (x) <= (max))
#define CLAMP_RANGE(x, min, max) x = (x < (min)) ? min : ((x > (max)) ? max : x)
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

int rows, cols;
int *data;
int **wall;
int *result;
int pyramid_height;

void init(int argc, char **argv) {
    cols = 1000;
    rows = 24;
    pyramid_height = 4;
    data = new int[rows * cols];
    wall = new int *[rows];
    for (int n = 0; n < rows; n++) wall[n] = data + cols * n;
    result = new int[cols];
    int seed = 9;
    srand(seed);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) wall[i][j] = rand() % 10;
}

__global__ void dynproc_kernel(int iteration, int *gpuWall, int *gpuSrc, int *gpuResults, int cols, int rows,
                               int startStep, int border) {
    __shared__ int prev[BLOCK_SIZE];
    __shared__ int result[BLOCK_SIZE];
    int bx = blockIdx.x;
    int tx = threadIdx.x;
    int small_block_cols = BLOCK_SIZE - iteration * HALO * 2;
    int blkX = small_block_cols * bx - border;
    int blkXmax = blkX + BLOCK_SIZE - 1;
    int xidx = blkX + tx;
    int validXmin = (blkX < 0) ? -blkX : 0;
    int validXmax = (blkXmax > cols - 1) ? BLOCK_SIZE - 1 - (blkXmax - cols + 1) : BLOCK_SIZE - 1;
    int W = tx - 1;
    int E = tx + 1;
    W = (W < validXmin) ? validXmin : W;
    E = (E > validXmax) ? validXmax : E;
    bool isValid = IN_RANGE(tx, validXmin, validXmax);
    if (IN_RANGE(xidx, 0, cols - 1)) prev[tx] = gpuSrc[xidx];
    __syncthreads();
    bool computed;
    for (int i = 0; i < iteration; i++) {
        computed = false;
        if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && isValid) {
            computed = true;
            int left = prev[W];
            int up = prev[tx];
            int right = prev[E];
            int shortest = MIN(left, up);
            shortest = MIN(shortest, right);
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

int calc_path(int *gpuWall, int *gpuResult[2], int rows, int cols, int pyramid_height, int blockCols, int borderCols) {
    dim3 dimBlock(BLOCK_SIZE);
    dim3 dimGrid(blockCols);
    int src = 1, dst = 0;
    for (int t = 0; t < rows - 1; t += pyramid_height) {
        int temp = src;
        src = dst;
        dst = temp;
        dynproc_kernel<<<dimGrid, dimBlock>>>(MIN(pyramid_height, rows - t - 1), gpuWall, gpuResult[src],
                                              gpuResult[dst], cols, rows, t, borderCols);
    }
    return dst;
}

int main(int argc, char **argv) {
    init(argc, argv);
    int borderCols = (pyramid_height)*HALO;
    int smallBlockCol = BLOCK_SIZE - (pyramid_height)*HALO * 2;
    int blockCols = cols / smallBlockCol + ((cols % smallBlockCol == 0) ? 0 : 1);
    printf("pyramidHeight: %d\ngridSize: [%d]\nborder:[%d]\nblockSize: %d\nblockGrid:[%d]\ntargetBlock:[%d]\n",
           pyramid_height, cols, borderCols, BLOCK_SIZE, blockCols, smallBlockCol);

    int *gpuWall, *gpuResult[2];
    int size = rows * cols;
    cudaMalloc((void **)&gpuResult[0], sizeof(int) * cols);
    cudaMalloc((void **)&gpuResult[1], sizeof(int) * cols);
    cudaMemcpy(gpuResult[0], data, sizeof(int) * cols, cudaMemcpyHostToDevice);
    cudaMalloc((void **)&gpuWall, sizeof(int) * (size - cols));
    cudaMemcpy(gpuWall, data + cols, sizeof(int) * (size - cols), cudaMemcpyHostToDevice);

    int final_ret = calc_path(gpuWall, gpuResult, rows, cols, pyramid_height, blockCols, borderCols);
    cudaMemcpy(result, gpuResult[final_ret], sizeof(int) * cols, cudaMemcpyDeviceToHost);

    // CPU reference.
    int *src = new int[cols], *dst = new int[cols];
    for (int j = 0; j < cols; j++) src[j] = wall[0][j];
    for (int t = 1; t < rows; t++) {
        for (int n = 0; n < cols; n++) {
            int m = src[n];
            if (n > 0) m = MIN(m, src[n - 1]);
            if (n < cols - 1) m = MIN(m, src[n + 1]);
            dst[n] = wall[t][n] + m;
        }
        int *tmp = src;
        src = dst;
        dst = tmp;
    }
    int bad = 0;
    for (int i = 0; i < cols; i++)
        if (result[i] != src[i]) {
            if (bad < 5) printf("col %d: gpu %d cpu %d\n", i, result[i], src[i]);
            bad++;
        }
    cudaFree(gpuWall);
    cudaFree(gpuResult[0]);
    cudaFree(gpuResult[1]);
    delete[] data;
    delete[] wall;
    delete[] result;
    if (bad) {
        printf("FAILED: %d columns differ\n", bad);
        return 1;
    }
    printf("PASSED pathfinder\n");
    return 0;
}
