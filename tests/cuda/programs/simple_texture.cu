// SPDX-License-Identifier: Apache-2.0
// simpleTexture-style with texture objects: tex1Dfetch on linear memory and tex2D on pitched
// memory (point and linear filtering, clamp/wrap), results checked on the host.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define checkCudaErrors(val)                                                                  \
    do {                                                                                      \
        cudaError_t e = (val);                                                                \
        if (e) {                                                                              \
            fprintf(stderr, "CUDA error %s (%s) at %s:%d\n", cudaGetErrorString(e), #val, __FILE__, __LINE__); \
            exit(EXIT_FAILURE);                                                               \
        }                                                                                     \
    } while (0)

__global__ void fetchKernel(float *out, cudaTextureObject_t tex, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(tex, i) + tex1Dfetch<float>(tex, n - 1 - i);
}

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

__global__ void pointKernel(float *out, int width, int height, cudaTextureObject_t tex) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) out[y * width + x] = tex2D<float>(tex, x + 0.5f, y + 0.5f);
}

int main() {
    // 1-D fetches.
    const int n = 1000;
    float *h = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) h[i] = (float)(i * 3 % 101);
    float *d_in, *d_out;
    checkCudaErrors(cudaMalloc(&d_in, n * sizeof(float)));
    checkCudaErrors(cudaMalloc(&d_out, n * sizeof(float)));
    checkCudaErrors(cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice));
    cudaResourceDesc resDesc;
    memset(&resDesc, 0, sizeof(resDesc));
    resDesc.resType = cudaResourceTypeLinear;
    resDesc.res.linear.devPtr = d_in;
    resDesc.res.linear.desc = cudaCreateChannelDesc<float>();
    resDesc.res.linear.sizeInBytes = n * sizeof(float);
    cudaTextureDesc texDesc;
    memset(&texDesc, 0, sizeof(texDesc));
    texDesc.readMode = cudaReadModeElementType;
    cudaTextureObject_t tex1 = 0;
    checkCudaErrors(cudaCreateTextureObject(&tex1, &resDesc, &texDesc, NULL));
    fetchKernel<<<(n + 127) / 128, 128>>>(d_out, tex1, n);
    checkCudaErrors(cudaGetLastError());
    float *r = (float *)malloc(n * sizeof(float));
    checkCudaErrors(cudaMemcpy(r, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (r[i] != h[i] + h[n - 1 - i]) bad++;
    printf("tex1Dfetch: %d mismatches\n", bad);

    // 2-D pitched, normalised coordinates, linear filtering, wrap.
    const int width = 64, height = 48;
    float *img = (float *)malloc(width * height * sizeof(float));
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) img[y * width + x] = (float)((x * 7 + y * 13) % 32) / 32.0f;
    float *d_img;
    size_t pitch;
    checkCudaErrors(cudaMallocPitch(&d_img, &pitch, width * sizeof(float), height));
    checkCudaErrors(cudaMemcpy2D(d_img, pitch, img, width * sizeof(float), width * sizeof(float), height,
                                 cudaMemcpyHostToDevice));
    memset(&resDesc, 0, sizeof(resDesc));
    resDesc.resType = cudaResourceTypePitch2D;
    resDesc.res.pitch2D.devPtr = d_img;
    resDesc.res.pitch2D.desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    resDesc.res.pitch2D.width = width;
    resDesc.res.pitch2D.height = height;
    resDesc.res.pitch2D.pitchInBytes = pitch;
    memset(&texDesc, 0, sizeof(texDesc));
    texDesc.normalizedCoords = true;
    texDesc.filterMode = cudaFilterModeLinear;
    texDesc.addressMode[0] = cudaAddressModeWrap;
    texDesc.addressMode[1] = cudaAddressModeWrap;
    texDesc.readMode = cudaReadModeElementType;
    cudaTextureObject_t tex2 = 0;
    checkCudaErrors(cudaCreateTextureObject(&tex2, &resDesc, &texDesc, NULL));
    float *d_res;
    checkCudaErrors(cudaMalloc(&d_res, width * height * sizeof(float)));
    dim3 block(16, 16), grid((width + 15) / 16, (height + 15) / 16);
    transformKernel<<<grid, block>>>(d_res, width, height, 0.0f, tex2);  // angle 0
    checkCudaErrors(cudaGetLastError());
    float *res = (float *)malloc(width * height * sizeof(float));
    checkCudaErrors(cudaMemcpy(res, d_res, width * height * sizeof(float), cudaMemcpyDeviceToHost));
    // Texel coordinate (x, y) lies between texels x-1 and x (and y-1 and y): weights 1/2, wrapped.
    int bad2 = 0;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            int xm = (x + width - 1) % width, ym = (y + height - 1) % height;
            float ref = 0.25f * (img[ym * width + xm] + img[ym * width + x] + img[y * width + xm] + img[y * width + x]);
            if (fabsf(res[y * width + x] - ref) > 1e-5f) bad2++;
        }
    printf("tex2D linear (angle 0): %d mismatches\n", bad2);

    // Point sampling with clamp, unnormalised coordinates.
    texDesc.normalizedCoords = false;
    texDesc.filterMode = cudaFilterModePoint;
    texDesc.addressMode[0] = cudaAddressModeClamp;
    texDesc.addressMode[1] = cudaAddressModeClamp;
    cudaTextureObject_t tex3 = 0;
    checkCudaErrors(cudaCreateTextureObject(&tex3, &resDesc, &texDesc, NULL));
    pointKernel<<<grid, block>>>(d_res, width, height, tex3);
    checkCudaErrors(cudaMemcpy(res, d_res, width * height * sizeof(float), cudaMemcpyDeviceToHost));
    int bad3 = 0;
    for (int i = 0; i < width * height; i++)
        if (res[i] != img[i]) bad3++;
    printf("tex2D point: %d mismatches\n", bad3);

    cudaResourceDesc back;
    checkCudaErrors(cudaGetTextureObjectResourceDesc(&back, tex3));
    if (back.resType != cudaResourceTypePitch2D || back.res.pitch2D.devPtr != d_img) bad3++;
    checkCudaErrors(cudaDestroyTextureObject(tex1));
    checkCudaErrors(cudaDestroyTextureObject(tex2));
    checkCudaErrors(cudaDestroyTextureObject(tex3));
    cudaFree(d_in), cudaFree(d_out), cudaFree(d_img), cudaFree(d_res);
    free(h), free(r), free(img), free(res);
    if (bad || bad2 || bad3) {
        printf("FAILED simple_texture\n");
        return 1;
    }
    printf("PASSED simple_texture\n");
    return 0;
}
