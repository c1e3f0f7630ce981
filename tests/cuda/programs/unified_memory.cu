// SPDX-License-Identifier: Apache-2.0
// Unified memory, SDK style: __managed__ variables (initialised, scalar and array) used by host
// and kernels, cudaMallocManaged data with cudaMemAdvise/cudaMemPrefetchAsync hints (CUDA 13
// signatures with cudaMemLocation), a stream attach, results read on the host, and copies into
// managed and mapped memory.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__managed__ int counter = 5;
__managed__ float table[64];
__managed__ double scale = 0.5;

__global__ void touch(int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        table[i] = table[i] * 2 + i;
        atomicAdd(&counter, 1);
    }
}

__global__ void saxpy(int n, const float *x, float *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = (float)scale * x[i] + y[i];
}

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

int main() {
    int dev = 0, managed = 0, concurrent = 0;
    CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, dev));
    CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, dev));
    printf("managed memory %d, concurrent access %d\n", managed, concurrent);
    if (!managed) {
        printf("FAILED: the device reports no managed memory\n");
        return 1;
    }
    for (int i = 0; i < 64; i++) table[i] = i;
    touch<<<2, 32>>>(64);
    CHECK(cudaDeviceSynchronize());
    int bad = counter != 69;
    for (int i = 0; i < 64; i++) bad += table[i] != 3 * i;

    const int n = 5000;
    float *x, *y;
    CHECK(cudaMallocManaged(&x, n * sizeof(float)));
    CHECK(cudaMallocManaged(&y, n * sizeof(float), cudaMemAttachGlobal));
    for (int i = 0; i < n; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
    cudaMemLocation loc;
    loc.type = cudaMemLocationTypeDevice;
    loc.id = dev;
    CHECK(cudaMemAdvise(x, n * sizeof(float), cudaMemAdviseSetReadMostly, loc));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaStreamAttachMemAsync(s, y, 0, cudaMemAttachSingle));
    CHECK(cudaMemPrefetchAsync(x, n * sizeof(float), loc, 0, s));
    scale = 2.0;
    saxpy<<<(n + 255) / 256, 256, 0, s>>>(n, x, y);
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < n; i++) bad += y[i] != 2.0f * i + 1.0f;
    // Explicit copies into managed and mapped pinned memory (cudaMemcpyDeviceToHost, 2-D, Default)
    // are seen by the host after the call.
    int *d, *zc, hbuf[256];
    CHECK(cudaMalloc(&d, sizeof hbuf));
    CHECK(cudaHostAlloc(&zc, sizeof hbuf, cudaHostAllocMapped));
    for (int i = 0; i < 256; i++) hbuf[i] = 7 * i + 1;
    CHECK(cudaMemcpy(d, hbuf, sizeof hbuf, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(x, d, sizeof hbuf, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy2D(zc, 16 * sizeof(int), d, 16 * sizeof(int), 16 * sizeof(int), 16, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 256; i++) bad += ((int *)x)[i] != 7 * i + 1 || zc[i] != 7 * i + 1;
    CHECK(cudaMemcpy(y, d, 64 * sizeof(int), cudaMemcpyDefault));
    for (int i = 0; i < 64; i++) bad += ((int *)y)[i] != 7 * i + 1;
    CHECK(cudaFree(d));
    CHECK(cudaFreeHost(zc));
    printf("counter %d, y[10] %f\n", counter, y[10]);
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    if (bad) {
        printf("FAILED unified_memory: %d\n", bad);
        return 1;
    }
    printf("PASSED unified_memory\n");
    return 0;
}
