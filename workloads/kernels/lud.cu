// SPDX-License-Identifier: Apache-2.0
// lud: Rodinia LUD, blocked in-place LU decomposition (Doolittle, no pivoting) of an n x n
// float matrix with 16 x 16 blocks; per block step a diagonal, a perimeter and an internal
// kernel update the shared matrix.
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3` (see regen_ptx.sh).
// Plain CUDA C only: no calls, no local memory, no warp intrinsics.

#define LUD_BS 16

// Factorises the diagonal block at (offset, offset); grid 1, block 16.
extern "C" __global__ void lud_diagonal(float* m, int matrix_dim, int offset)
{
    __shared__ float shadow[LUD_BS][LUD_BS];
    int array_offset = offset * matrix_dim + offset;
    for (int i = 0; i < LUD_BS; i++) {
        shadow[i][threadIdx.x] = m[array_offset + threadIdx.x];
        array_offset += matrix_dim;
    }
    __syncthreads();
    for (int i = 0; i < LUD_BS - 1; i++) {
        if (threadIdx.x > i) {
            for (int j = 0; j < i; j++) shadow[threadIdx.x][i] -= shadow[threadIdx.x][j] * shadow[j][i];
            shadow[threadIdx.x][i] /= shadow[i][i];
        }
        __syncthreads();
        if (threadIdx.x > i) {
            for (int j = 0; j < i + 1; j++) shadow[i + 1][threadIdx.x] -= shadow[i + 1][j] * shadow[j][threadIdx.x];
        }
        __syncthreads();
    }
    array_offset = (offset + 1) * matrix_dim + offset;
    for (int i = 1; i < LUD_BS; i++) {
        m[array_offset + threadIdx.x] = shadow[i][threadIdx.x];
        array_offset += matrix_dim;
    }
}

// Updates the blocks right of (row strip) and below (column strip) the diagonal block;
// grid (n - offset)/16 - 1, block 32: threads 0-15 do a row block, 16-31 a column block.
extern "C" __global__ void lud_perimeter(float* m, int matrix_dim, int offset)
{
    __shared__ float dia[LUD_BS][LUD_BS];
    __shared__ float peri_row[LUD_BS][LUD_BS];
    __shared__ float peri_col[LUD_BS][LUD_BS];
    int array_offset, idx;
    if (threadIdx.x < LUD_BS) {
        idx = threadIdx.x;
        array_offset = offset * matrix_dim + offset;
        for (int i = 0; i < LUD_BS / 2; i++) {
            dia[i][idx] = m[array_offset + idx];
            array_offset += matrix_dim;
        }
        array_offset = offset * matrix_dim + offset;
        for (int i = 0; i < LUD_BS; i++) {
            peri_row[i][idx] = m[array_offset + (blockIdx.x + 1) * LUD_BS + idx];
            array_offset += matrix_dim;
        }
    } else {
        idx = threadIdx.x - LUD_BS;
        array_offset = (offset + LUD_BS / 2) * matrix_dim + offset;
        for (int i = LUD_BS / 2; i < LUD_BS; i++) {
            dia[i][idx] = m[array_offset + idx];
            array_offset += matrix_dim;
        }
        array_offset = (offset + (blockIdx.x + 1) * LUD_BS) * matrix_dim + offset;
        for (int i = 0; i < LUD_BS; i++) {
            peri_col[i][idx] = m[array_offset + idx];
            array_offset += matrix_dim;
        }
    }
    __syncthreads();
    if (threadIdx.x < LUD_BS) {
        idx = threadIdx.x;
        for (int i = 1; i < LUD_BS; i++)
            for (int j = 0; j < i; j++) peri_row[i][idx] -= dia[i][j] * peri_row[j][idx];
    } else {
        idx = threadIdx.x - LUD_BS;
        for (int i = 0; i < LUD_BS; i++) {
            for (int j = 0; j < i; j++) peri_col[idx][i] -= peri_col[idx][j] * dia[j][i];
            peri_col[idx][i] /= dia[i][i];
        }
    }
    __syncthreads();
    if (threadIdx.x < LUD_BS) {
        idx = threadIdx.x;
        array_offset = (offset + 1) * matrix_dim + offset;
        for (int i = 1; i < LUD_BS; i++) {
            m[array_offset + (blockIdx.x + 1) * LUD_BS + idx] = peri_row[i][idx];
            array_offset += matrix_dim;
        }
    } else {
        idx = threadIdx.x - LUD_BS;
        array_offset = (offset + (blockIdx.x + 1) * LUD_BS) * matrix_dim + offset;
        for (int i = 0; i < LUD_BS; i++) {
            m[array_offset + idx] = peri_col[i][idx];
            array_offset += matrix_dim;
        }
    }
}

// Trailing update m -= L * U of every block below and right of the perimeter;
// grid ((n - offset)/16 - 1)^2, block (16,16).
extern "C" __global__ void lud_internal(float* m, int matrix_dim, int offset)
{
    __shared__ float peri_row[LUD_BS][LUD_BS];
    __shared__ float peri_col[LUD_BS][LUD_BS];
    int global_row_id = offset + (blockIdx.y + 1) * LUD_BS;
    int global_col_id = offset + (blockIdx.x + 1) * LUD_BS;
    peri_row[threadIdx.y][threadIdx.x] =
        m[(offset + threadIdx.y) * matrix_dim + global_col_id + threadIdx.x];
    peri_col[threadIdx.y][threadIdx.x] =
        m[(global_row_id + threadIdx.y) * matrix_dim + offset + threadIdx.x];
    __syncthreads();
    float sum = 0;
    for (int i = 0; i < LUD_BS; i++) sum += peri_col[threadIdx.y][i] * peri_row[i][threadIdx.x];
    m[(global_row_id + threadIdx.y) * matrix_dim + global_col_id + threadIdx.x] -= sum;
}
