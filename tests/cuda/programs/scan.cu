// SPDX-License-Identifier: Apache-2.0
// Prefix sum (SDK shfl_scan style): a warp-shuffle inclusive scan per block, block sums scanned
// by a second launch and added by a third; unsigned int and a templated uniform-add kernel.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>

#define checkCudaErrors(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void shfl_scan_test(int *data, int width, int *partial_sums = NULL) {
    extern __shared__ int sums[];
    int id = ((blockIdx.x * blockDim.x) + threadIdx.x);
    int lane_id = id % warpSize;
    int warp_id = threadIdx.x / warpSize;
    int value = data[id];
#pragma unroll
    for (int i = 1; i <= width; i *= 2) {
        unsigned int mask = 0xffffffff;
        int n = __shfl_up_sync(mask, value, i, width);
        if (lane_id >= i) value += n;
    }
    if (threadIdx.x % warpSize == warpSize - 1) sums[warp_id] = value;
    __syncthreads();
    if (warp_id == 0 && lane_id < (blockDim.x / warpSize)) {
        int warp_sum = sums[lane_id];
        int mask = (1 << (blockDim.x / warpSize)) - 1;
        for (int i = 1; i <= (blockDim.x / warpSize); i *= 2) {
            int n = __shfl_up_sync(mask, warp_sum, i, (blockDim.x / warpSize));
            if (lane_id >= i) warp_sum += n;
        }
        sums[lane_id] = warp_sum;
    }
    __syncthreads();
    int blockSum = 0;
    if (warp_id > 0) blockSum = sums[warp_id - 1];
    value += blockSum;
    data[id] = value;
    if (partial_sums != NULL && threadIdx.x == blockDim.x - 1) partial_sums[blockIdx.x] = value;
}

template <typename T> __global__ void uniform_add(T *data, const T *partial_sums, int len) {
    __shared__ T buf;
    int id = ((blockIdx.x * blockDim.x) + threadIdx.x);
    if (id > len) return;
    if (threadIdx.x == 0) buf = partial_sums[blockIdx.x];
    __syncthreads();
    data[id] += buf;
}

int main() {
    int blockSize = 256;
    int n_elements = 65536 / 8;
    int sz = sizeof(int) * n_elements;
    int gridSize = n_elements / blockSize;
    int nWarps = blockSize / 32;
    int shmem_sz = nWarps * sizeof(int);
    int n_partialSums = n_elements / blockSize;
    int partial_sz = n_partialSums * sizeof(int);
    std::vector<int> h_data(n_elements), h_result(n_elements);
    for (int i = 0; i < n_elements; i++) h_data[i] = rand() % 4;
    int *d_data, *d_partial_sums;
    checkCudaErrors(cudaMalloc((void **)&d_data, sz));
    checkCudaErrors(cudaMalloc((void **)&d_partial_sums, partial_sz));
    checkCudaErrors(cudaMemset(d_partial_sums, 0, partial_sz));
    checkCudaErrors(cudaMemcpy(d_data, h_data.data(), sz, cudaMemcpyHostToDevice));
    shfl_scan_test<<<gridSize, blockSize, shmem_sz>>>(d_data, 32, d_partial_sums);
    shfl_scan_test<<<1, n_partialSums, n_partialSums / 32 * sizeof(int)>>>(d_partial_sums, 32);
    uniform_add<<<gridSize - 1, blockSize>>>(d_data + blockSize, d_partial_sums, n_elements);
    checkCudaErrors(cudaGetLastError());
    checkCudaErrors(cudaMemcpy(h_result.data(), d_data, sz, cudaMemcpyDeviceToHost));
    int bad = 0, run = 0;
    for (int i = 0; i < n_elements; i++) {
        run += h_data[i];
        if (h_result[i] != run) {
            if (bad < 5) printf("element %d: gpu %d cpu %d\n", i, h_result[i], run);
            bad++;
        }
    }
    checkCudaErrors(cudaFree(d_data));
    checkCudaErrors(cudaFree(d_partial_sums));
    if (bad) {
        printf("FAILED scan: %d\n", bad);
        return 1;
    }
    printf("PASSED scan\n");
    return 0;
}
