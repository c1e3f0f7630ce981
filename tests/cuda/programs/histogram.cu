// SPDX-License-Identifier: Apache-2.0
// histogram256-style: per-block sub-histograms in shared memory with atomics, merged by a
// second kernel; plus a warp-vote/ballot count and atomic intrinsics; checked on the host.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HISTOGRAM256_BIN_COUNT 256
#define PARTIAL_HISTOGRAM256_COUNT 24
#define checkCudaErrors(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void histogram256Kernel(unsigned int *d_PartialHistograms, const unsigned char *d_Data, unsigned int dataCount) {
    __shared__ unsigned int s_Hist[HISTOGRAM256_BIN_COUNT];
    for (unsigned int i = threadIdx.x; i < HISTOGRAM256_BIN_COUNT; i += blockDim.x) s_Hist[i] = 0;
    __syncthreads();
    for (unsigned int pos = blockIdx.x * blockDim.x + threadIdx.x; pos < dataCount; pos += blockDim.x * gridDim.x)
        atomicAdd(&s_Hist[d_Data[pos]], 1);
    __syncthreads();
    for (unsigned int bin = threadIdx.x; bin < HISTOGRAM256_BIN_COUNT; bin += blockDim.x)
        d_PartialHistograms[blockIdx.x * HISTOGRAM256_BIN_COUNT + bin] = s_Hist[bin];
}

__global__ void mergeHistogram256Kernel(unsigned int *d_Histogram, const unsigned int *d_PartialHistograms, unsigned int histogramCount) {
    unsigned int sum = 0;
    for (unsigned int i = threadIdx.x; i < histogramCount; i += blockDim.x)
        sum += d_PartialHistograms[blockIdx.x + i * HISTOGRAM256_BIN_COUNT];
    __shared__ unsigned int data[32];
    data[threadIdx.x] = sum;
    for (unsigned int stride = 16; stride > 0; stride >>= 1) {
        __syncthreads();
        if (threadIdx.x < stride) data[threadIdx.x] += data[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) d_Histogram[blockIdx.x] = data[0];
}

__global__ void voteKernel(const unsigned char *d_Data, unsigned int n, unsigned int *count, int *mx, int *mn,
                           unsigned int *orv, unsigned int *cas) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool big = i < n && d_Data[i] >= 128;
    unsigned int ballot = __ballot_sync(0xffffffff, big);
    if ((threadIdx.x & 31) == 0) atomicAdd(count, __popc(ballot));
    if (i < n) {
        atomicMax(mx, (int)d_Data[i]);
        atomicMin(mn, (int)d_Data[i]);
        atomicOr(orv, 1u << (d_Data[i] & 31));
        if (i % 32 == 0) {  // one lane per warp: a compare-and-swap loop
            unsigned int old = *cas, assumed;
            do {
                assumed = old;
                old = atomicCAS(cas, assumed, assumed + d_Data[i]);
            } while (assumed != old);
        }
    }
    if (__any_sync(0xffffffff, big) && !__all_sync(0xffffffff, true)) *count = 0xdeadbeef;  // never: all is true
}

int main() {
    const unsigned int byteCount = 40000;
    unsigned char *h_Data = (unsigned char *)malloc(byteCount);
    srand(2009);
    for (unsigned int i = 0; i < byteCount; i++) h_Data[i] = rand() % 256;
    unsigned char *d_Data;
    unsigned int *d_Partial, *d_Hist, *d_misc;
    checkCudaErrors(cudaMalloc(&d_Data, byteCount));
    checkCudaErrors(cudaMalloc(&d_Partial, PARTIAL_HISTOGRAM256_COUNT * HISTOGRAM256_BIN_COUNT * sizeof(unsigned int)));
    checkCudaErrors(cudaMalloc(&d_Hist, HISTOGRAM256_BIN_COUNT * sizeof(unsigned int)));
    checkCudaErrors(cudaMalloc(&d_misc, 5 * sizeof(unsigned int)));
    checkCudaErrors(cudaMemcpy(d_Data, h_Data, byteCount, cudaMemcpyHostToDevice));
    histogram256Kernel<<<PARTIAL_HISTOGRAM256_COUNT, 192>>>(d_Partial, d_Data, byteCount);
    mergeHistogram256Kernel<<<HISTOGRAM256_BIN_COUNT, 32>>>(d_Hist, d_Partial, PARTIAL_HISTOGRAM256_COUNT);
    checkCudaErrors(cudaGetLastError());
    unsigned int h_Hist[HISTOGRAM256_BIN_COUNT], ref[HISTOGRAM256_BIN_COUNT];
    checkCudaErrors(cudaMemcpy(h_Hist, d_Hist, sizeof h_Hist, cudaMemcpyDeviceToHost));
    memset(ref, 0, sizeof ref);
    for (unsigned int i = 0; i < byteCount; i++) ref[h_Data[i]]++;
    int bad = 0;
    for (int i = 0; i < HISTOGRAM256_BIN_COUNT; i++) bad += h_Hist[i] != ref[i];

    unsigned int init[5] = {0, 0, 1000, 0, 0};
    checkCudaErrors(cudaMemcpy(d_misc, init, sizeof init, cudaMemcpyHostToDevice));
    voteKernel<<<(byteCount + 255) / 256, 256>>>(d_Data, byteCount, d_misc, (int *)d_misc + 1, (int *)d_misc + 2, d_misc + 3, d_misc + 4);
    unsigned int misc[5];
    checkCudaErrors(cudaMemcpy(misc, d_misc, sizeof misc, cudaMemcpyDeviceToHost));
    unsigned int big = 0, orv = 0, total = 0;
    int mx = 0, mn = 1000;
    for (unsigned int i = 0; i < byteCount; i++) {
        big += h_Data[i] >= 128;
        mx = h_Data[i] > mx ? h_Data[i] : mx;
        mn = h_Data[i] < mn ? h_Data[i] : mn;
        orv |= 1u << (h_Data[i] & 31);
        if (i % 32 == 0) total += h_Data[i];
    }
    printf("ballot count %u (%u), max %d (%d), min %d (%d), or %08x (%08x), cas sum %u (%u)\n", misc[0], big, (int)misc[1], mx,
           (int)misc[2], mn, misc[3], orv, misc[4], total);
    bad += misc[0] != big || (int)misc[1] != mx || (int)misc[2] != mn || misc[3] != orv || misc[4] != total;
    cudaFree(d_Data), cudaFree(d_Partial), cudaFree(d_Hist), cudaFree(d_misc);
    free(h_Data);
    if (bad) {
        printf("FAILED histogram: %d\n", bad);
        return 1;
    }
    printf("PASSED histogram\n");
    return 0;
}
