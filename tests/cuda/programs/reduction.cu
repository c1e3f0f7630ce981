// SPDX-License-Identifier: Apache-2.0
// reduction (SDK style): templated kernels with the block size as a template parameter,
// dynamic shared memory through a templated SharedMemory struct, warp-unrolled tail with
// volatile pointers, multiple passes until one value is left; int, float and double checked.
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

template <class T> struct SharedMemory {
    __device__ inline operator T *() {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};
template <> struct SharedMemory<double> {
    __device__ inline operator double *() {
        extern __shared__ double __smem_d[];
        return (double *)__smem_d;
    }
};

template <class T, unsigned int blockSize> __device__ void warpReduce(volatile T *sdata, unsigned int tid) {
    if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
    if (blockSize >= 32) sdata[tid] += sdata[tid + 16];
    if (blockSize >= 16) sdata[tid] += sdata[tid + 8];
    if (blockSize >= 8) sdata[tid] += sdata[tid + 4];
    if (blockSize >= 4) sdata[tid] += sdata[tid + 2];
    if (blockSize >= 2) sdata[tid] += sdata[tid + 1];
}

template <class T, unsigned int blockSize, bool nIsPow2>
__global__ void reduce6(const T *g_idata, T *g_odata, unsigned int n) {
    T *sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockSize * 2 + threadIdx.x;
    unsigned int gridSize = blockSize * 2 * gridDim.x;
    T mySum = 0;
    while (i < n) {
        mySum += g_idata[i];
        if (nIsPow2 || i + blockSize < n) mySum += g_idata[i + blockSize];
        i += gridSize;
    }
    sdata[tid] = mySum;
    __syncthreads();
    if ((blockSize >= 512) && (tid < 256)) sdata[tid] = mySum = mySum + sdata[tid + 256];
    __syncthreads();
    if ((blockSize >= 256) && (tid < 128)) sdata[tid] = mySum = mySum + sdata[tid + 128];
    __syncthreads();
    if ((blockSize >= 128) && (tid < 64)) sdata[tid] = mySum = mySum + sdata[tid + 64];
    __syncthreads();
    if (tid < 32) {
        __syncwarp();
        // Warp-synchronous tail with shuffles (as the SDK's reduce6 on newer GPUs).
        if (blockSize >= 64) mySum += sdata[tid + 32];
        for (int offset = warpSize / 2; offset > 0; offset /= 2) mySum += __shfl_down_sync(0xffffffff, mySum, offset);
    }
    if (tid == 0) g_odata[blockIdx.x] = mySum;
}

template <class T> void reduce(int size, int threads, int blocks, const T *d_idata, T *d_odata) {
    dim3 dimBlock(threads, 1, 1);
    dim3 dimGrid(blocks, 1, 1);
    int smemSize = (threads <= 32) ? 2 * threads * sizeof(T) : threads * sizeof(T);
    bool pow2 = (size & (size - 1)) == 0;
    switch (threads) {
    case 256:
        if (pow2) reduce6<T, 256, true><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
        else reduce6<T, 256, false><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
        break;
    case 128:
        if (pow2) reduce6<T, 128, true><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
        else reduce6<T, 128, false><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
        break;
    case 64:
        reduce6<T, 64, false><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size);
        break;
    }
}

template <class T> bool run(const char *name, int n, double tol) {
    T *h = (T *)malloc(n * sizeof(T));
    for (int i = 0; i < n; i++) h[i] = (T)(rand() & 0xFF) / (T)((sizeof(T) == 4 && (T)0.5 == 0) ? 1 : 1);
    T *d_in, *d_out;
    checkCudaErrors(cudaMalloc(&d_in, n * sizeof(T)));
    checkCudaErrors(cudaMalloc(&d_out, n * sizeof(T)));
    checkCudaErrors(cudaMemcpy(d_in, h, n * sizeof(T), cudaMemcpyHostToDevice));
    int threads = 256, blocks = 16;
    reduce<T>(n, threads, blocks, d_in, d_out);
    checkCudaErrors(cudaGetLastError());
    int s = blocks;
    while (s > 1) {
        int t = s < 128 ? 64 : 128;
        int b = (s + t * 2 - 1) / (t * 2);
        reduce<T>(s, t, b, d_out, d_out);
        checkCudaErrors(cudaGetLastError());
        s = b;
    }
    T gpu;
    checkCudaErrors(cudaMemcpy(&gpu, d_out, sizeof(T), cudaMemcpyDeviceToHost));
    double cpu = 0;
    for (int i = 0; i < n; i++) cpu += h[i];
    printf("%s: gpu %.6f cpu %.6f\n", name, (double)gpu, cpu);
    cudaFree(d_in);
    cudaFree(d_out);
    free(h);
    return fabs((double)gpu - cpu) <= tol * fabs(cpu);
}

int main() {
    srand(1);
    bool ok = run<int>("int", 1 << 14, 0) && run<float>("float", 10000, 1e-6) && run<double>("double", 12345, 1e-12);
    if (!ok) {
        printf("FAILED reduction\n");
        return 1;
    }
    printf("PASSED reduction\n");
    return 0;
}
