// SPDX-License-Identifier: Apache-2.0
// simpleOccupancy-style: cudaOccupancyMaxPotentialBlockSize picks a block size, the occupancy
// calculator reports blocks per SM, cudaFuncGetAttributes; the kernel's result is checked.
#include <cuda_runtime.h>
#include <iostream>
#include <vector>

#define CHECK(x)                                                                         \
    do {                                                                                 \
        cudaError_t e = (x);                                                             \
        if (e != cudaSuccess) {                                                          \
            std::cerr << #x << ": " << cudaGetErrorString(e) << std::endl;              \
            return 1;                                                                    \
        }                                                                                \
    } while (0)

__global__ void square(int *array, int arrayCount) {
    extern __shared__ int dynamicSmem[];
    int idx = threadIdx.x + blockIdx.x * blockDim.x;
    if (idx < arrayCount) array[idx] *= array[idx];
    (void)dynamicSmem;
}

__global__ void __launch_bounds__(256) bounded(float *out) {
    __shared__ float tile[1024];
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}

static double reportPotentialOccupancy(void *kernel, int blockSize, size_t dynamicSMem) {
    int device;
    cudaDeviceProp prop;
    int numBlocks, activeWarps, maxWarps;
    cudaGetDevice(&device);
    cudaGetDeviceProperties(&prop, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&numBlocks, kernel, blockSize, dynamicSMem);
    activeWarps = numBlocks * blockSize / prop.warpSize;
    maxWarps = prop.maxThreadsPerMultiProcessor / prop.warpSize;
    return (double)activeWarps / maxWarps;
}

int main() {
    const int count = 10000;
    std::vector<int> h(count);
    for (int i = 0; i < count; i++) h[i] = i % 1000;
    int *d;
    CHECK(cudaMalloc(&d, count * sizeof(int)));
    CHECK(cudaMemcpy(d, h.data(), count * sizeof(int), cudaMemcpyHostToDevice));

    int blockSize, minGridSize;
    CHECK(cudaOccupancyMaxPotentialBlockSize(&minGridSize, &blockSize, (void *)square, 0, count));
    std::cout << "suggested block size " << blockSize << ", minimum grid " << minGridSize << std::endl;
    int failures = 0;
    if (blockSize <= 0 || blockSize > 1024 || blockSize % 32 || minGridSize <= 0) failures++;
    int gridSize = (count + blockSize - 1) / blockSize;
    square<<<gridSize, blockSize>>>(d, count);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double occ = reportPotentialOccupancy((void *)square, blockSize, 0);
    std::cout << "Potential occupancy: " << occ * 100 << "%" << std::endl;
    if (!(occ > 0 && occ <= 1.0)) failures++;

    // More dynamic shared memory never raises the occupancy.
    int b0 = 0, b1 = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b0, square, 128, 0));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b1, square, 128, 16 * 1024));
    std::cout << "blocks per SM: " << b0 << " (no dynamic shared), " << b1 << " (16 KiB)" << std::endl;
    if (b1 > b0 || b1 < 1) failures++;

    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, bounded));
    std::cout << "bounded: " << attr.sharedSizeBytes << " bytes static shared, max " << attr.maxThreadsPerBlock
              << " threads, " << attr.numRegs << " registers" << std::endl;
    if (attr.sharedSizeBytes != 4096 || attr.maxThreadsPerBlock != 256) failures++;
    int bs2 = 0, mg2 = 0;
    CHECK(cudaOccupancyMaxPotentialBlockSizeVariableSMem(&mg2, &bs2, bounded, [](int b) { return (size_t)0; }, 0));
    if (bs2 > 256 || bs2 <= 0) failures++;
    float *out;
    CHECK(cudaMalloc(&out, 4 * 256 * sizeof(float)));
    bounded<<<4, 256>>>(out);
    CHECK(cudaGetLastError());
    bounded<<<1, 512>>>(out);  // more threads than __launch_bounds__ allows
    cudaError_t e = cudaGetLastError();
    std::cout << "launch over the bounds: " << cudaGetErrorName(e) << std::endl;
    if (e == cudaSuccess) failures++;
    std::vector<float> ho(1024);
    CHECK(cudaMemcpy(ho.data(), out, ho.size() * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 1024; i++)
        if (ho[i] != (float)((i % 256 + 1) % 256)) failures++;

    CHECK(cudaMemcpy(h.data(), d, count * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < count; i++)
        if (h[i] != (i % 1000) * (i % 1000)) failures++;
    cudaFree(d);
    cudaFree(out);
    if (failures) {
        std::cout << "FAILED: " << failures << std::endl;
        return 1;
    }
    std::cout << "PASSED simple_occupancy" << std::endl;
    return 0;
}
