// SPDX-License-Identifier: Apache-2.0
// simplePitchLinear-style: cudaMallocPitch, cudaMemcpy2D (H2D, D2D, D2H), cudaMemset2D and a
// kernel that walks the pitched rows; checked on the host.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CUDA_SAFE_CALL(x)                                                                   \
    do {                                                                                    \
        cudaError_t err = x;                                                                \
        if (err != cudaSuccess) {                                                           \
            printf("%s failed: %s\n", #x, cudaGetErrorString(err));                         \
            return 1;                                                                       \
        }                                                                                   \
    } while (0)

__global__ void shiftPitchLinear(float *odata, int pitch, int width, int height, int shiftX, int shiftY,
                                 const float *idata, int ipitch) {
    int xid = blockIdx.x * blockDim.x + threadIdx.x;
    int yid = blockIdx.y * blockDim.y + threadIdx.y;
    if (xid < width && yid < height) {
        int sx = (xid + shiftX) % width;
        int sy = (yid + shiftY) % height;
        const float *row = (const float *)((const char *)idata + sy * ipitch);
        float *orow = (float *)((char *)odata + yid * pitch);
        orow[xid] = row[sx] * 2.0f;
    }
}

int main() {
    const int width = 100, height = 37, shiftX = 7, shiftY = 3;
    size_t hbytes = width * height * sizeof(float);
    float *h_idata = (float *)malloc(hbytes), *h_odata = (float *)malloc(hbytes), *h_check = (float *)malloc(hbytes);
    for (int i = 0; i < width * height; i++) h_idata[i] = (float)i;

    float *dData, *dOut, *dCopy;
    size_t pitch, opitch, cpitch;
    CUDA_SAFE_CALL(cudaMallocPitch((void **)&dData, &pitch, sizeof(float) * width, height));
    CUDA_SAFE_CALL(cudaMallocPitch((void **)&dOut, &opitch, sizeof(float) * width, height));
    CUDA_SAFE_CALL(cudaMallocPitch((void **)&dCopy, &cpitch, sizeof(float) * width, height));
    printf("pitch %zu for rows of %zu bytes\n", pitch, sizeof(float) * width);
    if (pitch < sizeof(float) * width || pitch % 32 != 0) {
        printf("FAILED: bad pitch %zu\n", pitch);
        return 1;
    }
    CUDA_SAFE_CALL(cudaMemcpy2D(dData, pitch, h_idata, sizeof(float) * width, sizeof(float) * width, height,
                                cudaMemcpyHostToDevice));
    CUDA_SAFE_CALL(cudaMemset2D(dOut, opitch, 0xff, sizeof(float) * width, height));
    CUDA_SAFE_CALL(cudaMemcpy2D(dCopy, cpitch, dData, pitch, sizeof(float) * width, height, cudaMemcpyDeviceToDevice));

    dim3 block(32, 8);
    dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
    shiftPitchLinear<<<grid, block>>>(dOut, (int)opitch, width, height, shiftX, shiftY, dCopy, (int)cpitch);
    CUDA_SAFE_CALL(cudaGetLastError());
    CUDA_SAFE_CALL(cudaMemcpy2D(h_odata, sizeof(float) * width, dOut, opitch, sizeof(float) * width, height,
                                cudaMemcpyDeviceToHost));
    // A sub-rectangle copied back with an offset (columns 10..29 of rows 5..14).
    float sub[10][20];
    CUDA_SAFE_CALL(cudaMemcpy2D(sub, sizeof(sub[0]), (char *)dData + 5 * pitch + 10 * sizeof(float), pitch,
                                20 * sizeof(float), 10, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            float ref = h_idata[((y + shiftY) % height) * width + (x + shiftX) % width] * 2.0f;
            if (h_odata[y * width + x] != ref) bad++;
        }
    for (int y = 0; y < 10; y++)
        for (int x = 0; x < 20; x++)
            if (sub[y][x] != h_idata[(y + 5) * width + x + 10]) bad++;
    // Too narrow a pitch is refused.
    if (cudaMemcpy2D(h_check, 4, h_idata, 4, 8, 2, cudaMemcpyHostToHost) != cudaErrorInvalidPitchValue) bad++;
    cudaGetLastError();
    cudaFree(dData);
    cudaFree(dOut);
    cudaFree(dCopy);
    free(h_idata), free(h_odata), free(h_check);
    if (bad) {
        printf("FAILED: %d mismatches\n", bad);
        return 1;
    }
    printf("PASSED simple_pitch\n");
    return 0;
}
