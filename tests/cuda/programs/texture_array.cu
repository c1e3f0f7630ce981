// SPDX-License-Identifier: Apache-2.0
// simpleTexture (SDK) style: an image in a 2-D CUDA array (cudaMallocArray, cudaMemcpy2DToArray),
// a texture object on it with normalised coordinates, wrap addressing and linear filtering,
// rotated by a kernel; checked against a CPU bilinear sampler with the hardware's 8-bit
// weights. Also cudaMemcpyToArray / cudaMemcpy2DFromArray round trips and an unsigned-char
// array read as normalised floats with point sampling.
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define checkCudaErrors(val)                                                                          \
    do {                                                                                              \
        cudaError_t e = (val);                                                                        \
        if (e) {                                                                                      \
            fprintf(stderr, "CUDA error %s (%s) at %s:%d\n", cudaGetErrorString(e), #val, __FILE__, __LINE__); \
            exit(EXIT_FAILURE);                                                                       \
        }                                                                                             \
    } while (0)

const float angle = 0.5f;

__global__ void transformKernel(float *outputData, int width, int height, float theta, cudaTextureObject_t tex) {
    unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    float u = (float)x - (float)width / 2;
    float v = (float)y - (float)height / 2;
    float tu = u * cosf(theta) - v * sinf(theta);
    float tv = v * cosf(theta) + u * sinf(theta);
    tu /= (float)width;
    tv /= (float)height;
    outputData[y * width + x] = tex2D<float>(tex, tu + 0.5f, tv + 0.5f);
}

__global__ void readBytes(float *out, int width, int height, cudaTextureObject_t tex) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) out[y * width + x] = tex2D<float>(tex, x + 0.5f, y + 0.5f);
}

// CPU bilinear sample with wrap, normalised coordinates, 1/256 weights.
static float sample(const float *img, int w, int h, float u, float v) {
    float x = u * w - 0.5f, y = v * h - 0.5f;
    float fx = floorf(x), fy = floorf(y);
    float a = roundf((x - fx) * 256.0f) / 256.0f, b = roundf((y - fy) * 256.0f) / 256.0f;
    int x0 = (int)fx, y0 = (int)fy;
    auto at = [&](int i, int j) {
        i = ((i % w) + w) % w;
        j = ((j % h) + h) % h;
        return img[j * w + i];
    };
    return (1 - a) * (1 - b) * at(x0, y0) + a * (1 - b) * at(x0 + 1, y0) + (1 - a) * b * at(x0, y0 + 1) +
           a * b * at(x0 + 1, y0 + 1);
}

int main() {
    const int width = 64, height = 48;
    unsigned int size = width * height * sizeof(float);
    float *hData = (float *)malloc(size);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) hData[y * width + x] = sinf(x * 0.3f) * cosf(y * 0.2f);
    float *dData = NULL;
    checkCudaErrors(cudaMalloc((void **)&dData, size));

    cudaChannelFormatDesc channelDesc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaArray *cuArray;
    checkCudaErrors(cudaMallocArray(&cuArray, &channelDesc, width, height));
    checkCudaErrors(cudaMemcpy2DToArray(cuArray, 0, 0, hData, width * sizeof(float), width * sizeof(float), height,
                                        cudaMemcpyHostToDevice));
    cudaTextureObject_t tex;
    cudaResourceDesc texRes;
    memset(&texRes, 0, sizeof(cudaResourceDesc));
    texRes.resType = cudaResourceTypeArray;
    texRes.res.array.array = cuArray;
    cudaTextureDesc texDescr;
    memset(&texDescr, 0, sizeof(cudaTextureDesc));
    texDescr.normalizedCoords = true;
    texDescr.filterMode = cudaFilterModeLinear;
    texDescr.addressMode[0] = cudaAddressModeWrap;
    texDescr.addressMode[1] = cudaAddressModeWrap;
    texDescr.readMode = cudaReadModeElementType;
    checkCudaErrors(cudaCreateTextureObject(&tex, &texRes, &texDescr, NULL));

    dim3 dimBlock(8, 8, 1);
    dim3 dimGrid(width / dimBlock.x, height / dimBlock.y, 1);
    transformKernel<<<dimGrid, dimBlock, 0>>>(dData, width, height, angle, tex);
    checkCudaErrors(cudaGetLastError());
    checkCudaErrors(cudaDeviceSynchronize());
    float *hOutputData = (float *)malloc(size);
    checkCudaErrors(cudaMemcpy(hOutputData, dData, size, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            float u = (float)x - (float)width / 2, v = (float)y - (float)height / 2;
            float tu = u * cosf(angle) - v * sinf(angle), tv = v * cosf(angle) + u * sinf(angle);
            float ref = sample(hData, width, height, tu / width + 0.5f, tv / height + 0.5f);
            if (fabsf(ref - hOutputData[y * width + x]) > 2e-2f) {
                if (bad < 5) printf("(%d, %d): gpu %f cpu %f\n", x, y, hOutputData[y * width + x], ref);
                bad++;
            }
        }
    printf("rotation: %d pixels differ\n", bad);

    // Round trips through the array.
    float row[width], back[3][10];
    for (int i = 0; i < width; i++) row[i] = 100.0f + i;
    checkCudaErrors(cudaMemcpyToArray(cuArray, 0, 5, row, sizeof row, cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy2DFromArray(back, sizeof back[0], cuArray, 4 * sizeof(float), 5, 10 * sizeof(float), 3,
                                          cudaMemcpyDeviceToHost));
    for (int j = 0; j < 10; j++) bad += back[0][j] != 104.0f + j || back[1][j] != hData[6 * width + 4 + j];
    cudaChannelFormatDesc got;
    checkCudaErrors(cudaGetChannelDesc(&got, cuArray));
    bad += got.x != 32 || got.f != cudaChannelFormatKindFloat;
    if (cudaMemcpy2DToArray(cuArray, 0, height - 1, hData, width * 4, width * 4, 2, cudaMemcpyHostToDevice) !=
        cudaErrorInvalidValue)
        bad++;
    cudaGetLastError();

    // unsigned char texels read as normalised floats.
    cudaChannelFormatDesc byteDesc = cudaCreateChannelDesc<unsigned char>();
    cudaArray_t bytes;
    checkCudaErrors(cudaMallocArray(&bytes, &byteDesc, width, height));
    unsigned char *hb = (unsigned char *)malloc(width * height);
    for (int i = 0; i < width * height; i++) hb[i] = (unsigned char)(i * 7);
    checkCudaErrors(cudaMemcpy2DToArray(bytes, 0, 0, hb, width, width, height, cudaMemcpyHostToDevice));
    texRes.res.array.array = bytes;
    texDescr.normalizedCoords = false;
    texDescr.filterMode = cudaFilterModePoint;
    texDescr.addressMode[0] = texDescr.addressMode[1] = cudaAddressModeClamp;
    texDescr.readMode = cudaReadModeNormalizedFloat;
    cudaTextureObject_t tex8;
    checkCudaErrors(cudaCreateTextureObject(&tex8, &texRes, &texDescr, NULL));
    readBytes<<<dimGrid, dimBlock>>>(dData, width, height, tex8);
    checkCudaErrors(cudaMemcpy(hOutputData, dData, size, cudaMemcpyDeviceToHost));
    int bad8 = 0;
    for (int i = 0; i < width * height; i++) bad8 += fabsf(hOutputData[i] - hb[i] / 255.0f) > 1e-6f;
    printf("normalised bytes: %d differ\n", bad8);

    checkCudaErrors(cudaDestroyTextureObject(tex));
    checkCudaErrors(cudaDestroyTextureObject(tex8));
    checkCudaErrors(cudaFree(dData));
    checkCudaErrors(cudaFreeArray(cuArray));
    checkCudaErrors(cudaFreeArray(bytes));
    free(hData), free(hOutputData), free(hb);
    if (bad || bad8) {
        printf("FAILED texture_array\n");
        return 1;
    }
    printf("PASSED texture_array\n");
    return 0;
}
