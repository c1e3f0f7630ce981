// SPDX-License-Identifier: Apache-2.0
// cons: CUDA SDK convolutionSeparable, a row pass then a column pass of a 17-tap filter.
// Generated PTX: `nvcc -ptx -arch=sm_75 -O3 -o cons.ptx cons.cu` (see regen_ptx.sh). The SDK
// keeps the filter in constant memory; here it is a global array (no .const in our PTX).

#define RADIUS 8
#define BX 32
#define BY 8

// Block (32,8) over a w x h image; pixels outside the image read as zero (as in the SDK).
// dst[y][x] = sum_{k=-R..R} filter[R - k] * src[y][x + k].
extern "C" __global__ void convolution_rows(float* dst, const float* src, const float* filter, int w, int h)
{
    __shared__ float tile[BY][BX + 2 * RADIUS];
    int x = blockIdx.x * BX + threadIdx.x;
    int y = blockIdx.y * BY + threadIdx.y;
    int ty = threadIdx.y, tx = threadIdx.x;
    bool row_in = y < h;
    tile[ty][tx + RADIUS] = (row_in && x < w) ? src[y * w + x] : 0.0f;
    if (tx < RADIUS) {
        int xl = x - RADIUS;
        tile[ty][tx] = (row_in && xl >= 0) ? src[y * w + xl] : 0.0f;
        int xr = x + BX;
        tile[ty][tx + BX + RADIUS] = (row_in && xr < w) ? src[y * w + xr] : 0.0f;
    }
    __syncthreads();
    if (!row_in || x >= w) return;
    float sum = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) sum += filter[RADIUS - k] * tile[ty][tx + RADIUS + k];
    dst[y * w + x] = sum;
}

// Block (32,8); dst[y][x] = sum_{k=-R..R} filter[R - k] * src[y + k][x].
extern "C" __global__ void convolution_columns(float* dst, const float* src, const float* filter, int w, int h)
{
    __shared__ float tile[BY + 2 * RADIUS][BX];
    int x = blockIdx.x * BX + threadIdx.x;
    int y = blockIdx.y * BY + threadIdx.y;
    int ty = threadIdx.y, tx = threadIdx.x;
    bool col_in = x < w;
    tile[ty + RADIUS][tx] = (col_in && y < h) ? src[y * w + x] : 0.0f;
    int yu = y - RADIUS;
    tile[ty][tx] = (col_in && yu >= 0 && yu < h) ? src[yu * w + x] : 0.0f;
    int yd = y + RADIUS;
    tile[ty + 2 * RADIUS][tx] = (col_in && yd < h) ? src[yd * w + x] : 0.0f;
    __syncthreads();
    if (!col_in || y >= h) return;
    float sum = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) sum += filter[RADIUS - k] * tile[ty + RADIUS + k][tx];
    dst[y * w + x] = sum;
}
