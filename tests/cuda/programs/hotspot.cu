// SPDX-License-Identifier: Apache-2.0
// hotspot (Rodinia style): thermal simulation on a grid, shared-memory tiles with halos and a
// pyramid of iterations per launch, ping-pong buffers; checked against the CPU.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <assert.h>

#define BLOCK_SIZE 16
#define STR_SIZE 256
#define MAX_PD (3.0e6)
#define PRECISION 0.001
#define SPEC_HEAT_SI 1.75e6
#define K_SI 100
#define FACTOR_CHIP 0.5

#define IN_RANGE(x, min, max) ((x) >= (min) && (x) <= (max))
#define CLAMP_RANGE(x, min, max) x = (x < (min)) ? min : ((x > (max)) ? max : x)
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

float t_chip = 0.0005;
float chip_height = 0.016;
float chip_width = 0.016;
float amb_temp = 80.0;

__global__ void calculate_temp(int iteration, float *power, float *temp_src, float *temp_dst, int grid_cols,
                               int grid_rows, int border_cols, int border_rows, float Cap, float Rx, float Ry,
                               float Rz, float step, float time_elapsed) {
    __shared__ float temp_on_cuda[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float power_on_cuda[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float temp_t[BLOCK_SIZE][BLOCK_SIZE];

    float amb_temp = 80.0;
    float step_div_Cap;
    float Rx_1, Ry_1, Rz_1;
    int bx = blockIdx.x;
    int by = blockIdx.y;
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    step_div_Cap = step / Cap;
    Rx_1 = 1 / Rx;
    Ry_1 = 1 / Ry;
    Rz_1 = 1 / Rz;

    int small_block_rows = BLOCK_SIZE - iteration * 2;
    int small_block_cols = BLOCK_SIZE - iteration * 2;
    int blkY = small_block_rows * by - border_rows;
    int blkX = small_block_cols * bx - border_cols;
    int blkYmax = blkY + BLOCK_SIZE - 1;
    int blkXmax = blkX + BLOCK_SIZE - 1;
    int yidx = blkY + ty;
    int xidx = blkX + tx;
    int loadYidx = yidx, loadXidx = xidx;
    int index = grid_cols * loadYidx + loadXidx;

    if (IN_RANGE(loadYidx, 0, grid_rows - 1) && IN_RANGE(loadXidx, 0, grid_cols - 1)) {
        temp_on_cuda[ty][tx] = temp_src[index];
        power_on_cuda[ty][tx] = power[index];
    }
    __syncthreads();

    int validYmin = (blkY < 0) ? -blkY : 0;
    int validYmax = (blkYmax > grid_rows - 1) ? BLOCK_SIZE - 1 - (blkYmax - grid_rows + 1) : BLOCK_SIZE - 1;
    int validXmin = (blkX < 0) ? -blkX : 0;
    int validXmax = (blkXmax > grid_cols - 1) ? BLOCK_SIZE - 1 - (blkXmax - grid_cols + 1) : BLOCK_SIZE - 1;

    int N = ty - 1;
    int S = ty + 1;
    int W = tx - 1;
    int E = tx + 1;
    N = (N < validYmin) ? validYmin : N;
    S = (S > validYmax) ? validYmax : S;
    W = (W < validXmin) ? validXmin : W;
    E = (E > validXmax) ? validXmax : E;

    bool computed;
    for (int i = 0; i < iteration; i++) {
        computed = false;
        if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && IN_RANGE(ty, i + 1, BLOCK_SIZE - i - 2) &&
            IN_RANGE(tx, validXmin, validXmax) && IN_RANGE(ty, validYmin, validYmax)) {
            computed = true;
            temp_t[ty][tx] = temp_on_cuda[ty][tx] +
                             step_div_Cap * (power_on_cuda[ty][tx] +
                                             (temp_on_cuda[S][tx] + temp_on_cuda[N][tx] - 2.0 * temp_on_cuda[ty][tx]) * Ry_1 +
                                             (temp_on_cuda[ty][E] + temp_on_cuda[ty][W] - 2.0 * temp_on_cuda[ty][tx]) * Rx_1 +
                                             (amb_temp - temp_on_cuda[ty][tx]) * Rz_1);
        }
        __syncthreads();
        if (i == iteration - 1) break;
        if (computed) temp_on_cuda[ty][tx] = temp_t[ty][tx];
        __syncthreads();
    }
    if (computed) temp_dst[index] = temp_t[ty][tx];
}

// The same arithmetic on the CPU, tile by tile, so that the results match bit for bit.
static void cpu_step(int iteration, const float *power, const float *src, float *dst, int cols, int rows, int bcols,
                     int brows, float Cap, float Rx, float Ry, float Rz, float step, int gx, int gy) {
    float amb = 80.0f;
    float step_div_Cap = step / Cap;
    float Rx_1 = 1 / Rx, Ry_1 = 1 / Ry, Rz_1 = 1 / Rz;
    static float t[BLOCK_SIZE][BLOCK_SIZE], p[BLOCK_SIZE][BLOCK_SIZE], tt[BLOCK_SIZE][BLOCK_SIZE];
    static bool comp[BLOCK_SIZE][BLOCK_SIZE];
    for (int by = 0; by < gy; by++)
        for (int bx = 0; bx < gx; bx++) {
            int sb = BLOCK_SIZE - iteration * 2;
            int blkY = sb * by - brows, blkX = sb * bx - bcols;
            int blkYmax = blkY + BLOCK_SIZE - 1, blkXmax = blkX + BLOCK_SIZE - 1;
            for (int ty = 0; ty < BLOCK_SIZE; ty++)
                for (int tx = 0; tx < BLOCK_SIZE; tx++) {
                    int y = blkY + ty, x = blkX + tx;
                    if (IN_RANGE(y, 0, rows - 1) && IN_RANGE(x, 0, cols - 1)) {
                        t[ty][tx] = src[y * cols + x];
                        p[ty][tx] = power[y * cols + x];
                    }
                }
            int vYmin = (blkY < 0) ? -blkY : 0;
            int vYmax = (blkYmax > rows - 1) ? BLOCK_SIZE - 1 - (blkYmax - rows + 1) : BLOCK_SIZE - 1;
            int vXmin = (blkX < 0) ? -blkX : 0;
            int vXmax = (blkXmax > cols - 1) ? BLOCK_SIZE - 1 - (blkXmax - cols + 1) : BLOCK_SIZE - 1;
            for (int i = 0; i < iteration; i++) {
                for (int ty = 0; ty < BLOCK_SIZE; ty++)
                    for (int tx = 0; tx < BLOCK_SIZE; tx++) {
                        int N = ty - 1 < vYmin ? vYmin : ty - 1, S = ty + 1 > vYmax ? vYmax : ty + 1;
                        int W = tx - 1 < vXmin ? vXmin : tx - 1, E = tx + 1 > vXmax ? vXmax : tx + 1;
                        comp[ty][tx] = false;
                        if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && IN_RANGE(ty, i + 1, BLOCK_SIZE - i - 2) &&
                            IN_RANGE(tx, vXmin, vXmax) && IN_RANGE(ty, vYmin, vYmax)) {
                            comp[ty][tx] = true;
                            tt[ty][tx] = t[ty][tx] + step_div_Cap * (p[ty][tx] +
                                                                    (t[S][tx] + t[N][tx] - 2.0 * t[ty][tx]) * Ry_1 +
                                                                    (t[ty][E] + t[ty][W] - 2.0 * t[ty][tx]) * Rx_1 +
                                                                    (amb - t[ty][tx]) * Rz_1);
                        }
                    }
                if (i == iteration - 1) break;
                for (int ty = 0; ty < BLOCK_SIZE; ty++)
                    for (int tx = 0; tx < BLOCK_SIZE; tx++)
                        if (comp[ty][tx]) t[ty][tx] = tt[ty][tx];
            }
            for (int ty = 0; ty < BLOCK_SIZE; ty++)
                for (int tx = 0; tx < BLOCK_SIZE; tx++)
                    if (comp[ty][tx]) dst[(blkY + ty) * cols + blkX + tx] = tt[ty][tx];
        }
}

int main(int argc, char **argv) {
    int grid_rows = 40, grid_cols = 40, total_iterations = 6, pyramid_height = 2;
    int size = grid_rows * grid_cols;
    float *FilesavingTemp = (float *)malloc(size * sizeof(float));
    float *FilesavingPower = (float *)malloc(size * sizeof(float));
    float *MatrixOut = (float *)calloc(size, sizeof(float));
    srand(7);
    for (int i = 0; i < size; i++) {
        FilesavingTemp[i] = 320.0f + (rand() % 1000) / 100.0f;
        FilesavingPower[i] = (rand() % 100) / 1000.0f;
    }
#define EXPAND_RATE 2
    int borderCols = (pyramid_height)*EXPAND_RATE / 2;
    int borderRows = (pyramid_height)*EXPAND_RATE / 2;
    int smallBlockCol = BLOCK_SIZE - (pyramid_height)*EXPAND_RATE;
    int smallBlockRow = BLOCK_SIZE - (pyramid_height)*EXPAND_RATE;
    int blockCols = grid_cols / smallBlockCol + ((grid_cols % smallBlockCol == 0) ? 0 : 1);
    int blockRows = grid_rows / smallBlockRow + ((grid_rows % smallBlockRow == 0) ? 0 : 1);

    float *MatrixTemp[2], *MatrixPower;
    cudaMalloc((void **)&MatrixTemp[0], sizeof(float) * size);
    cudaMalloc((void **)&MatrixTemp[1], sizeof(float) * size);
    cudaMemcpy(MatrixTemp[0], FilesavingTemp, sizeof(float) * size, cudaMemcpyHostToDevice);
    cudaMalloc((void **)&MatrixPower, sizeof(float) * size);
    cudaMemcpy(MatrixPower, FilesavingPower, sizeof(float) * size, cudaMemcpyHostToDevice);

    float grid_height = chip_height / grid_rows;
    float grid_width = chip_width / grid_cols;
    float Cap = FACTOR_CHIP * SPEC_HEAT_SI * t_chip * grid_width * grid_height;
    float Rx = grid_width / (2.0 * K_SI * t_chip * grid_height);
    float Ry = grid_height / (2.0 * K_SI * t_chip * grid_width);
    float Rz = t_chip / (K_SI * grid_height * grid_width);
    float max_slope = MAX_PD / (FACTOR_CHIP * t_chip * SPEC_HEAT_SI);
    float step = PRECISION / max_slope;
    float time_elapsed = 0.001;

    dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
    dim3 dimGrid(blockCols, blockRows);
    int src = 1, dst = 0;
    // CPU copies of the two buffers (the GPU's ping-pong, cells outside computed tiles keep values).
    float *cpu[2];
    cpu[0] = (float *)malloc(size * sizeof(float));
    cpu[1] = (float *)calloc(size, sizeof(float));
    for (int i = 0; i < size; i++) cpu[0][i] = FilesavingTemp[i];
    cudaMemset(MatrixTemp[1], 0, sizeof(float) * size);
    for (int t = 0; t < total_iterations; t += pyramid_height) {
        int temp = src;
        src = dst;
        dst = temp;
        int it = MIN(pyramid_height, total_iterations - t);
        calculate_temp<<<dimGrid, dimBlock>>>(it, MatrixPower, MatrixTemp[src], MatrixTemp[dst], grid_cols, grid_rows,
                                              borderCols, borderRows, Cap, Rx, Ry, Rz, step, time_elapsed);
        cpu_step(it, FilesavingPower, cpu[src], cpu[dst], grid_cols, grid_rows, borderCols, borderRows, Cap, Rx, Ry, Rz,
                 step, blockCols, blockRows);
    }
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        printf("FAILED: %s\n", cudaGetErrorString(err));
        return 1;
    }
    cudaMemcpy(MatrixOut, MatrixTemp[dst], sizeof(float) * size, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < size; i++)
        if (fabsf(MatrixOut[i] - cpu[dst][i]) > 1e-3f * fabsf(cpu[dst][i])) {
            if (bad < 5) printf("cell %d: gpu %f cpu %f\n", i, MatrixOut[i], cpu[dst][i]);
            bad++;
        }
    cudaFree(MatrixPower);
    cudaFree(MatrixTemp[0]);
    cudaFree(MatrixTemp[1]);
    free(MatrixOut);
    if (bad) {
        printf("FAILED: %d cells differ\n", bad);
        return 1;
    }
    printf("PASSED hotspot\n");
    return 0;
}
