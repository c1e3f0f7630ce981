// SPDX-License-Identifier: Apache-2.0
// jacobi2d (PolyBench/GPU style): TSTEPS iterations of a 5-point stencil with two kernels per
// step, checked against the CPU; timed with events.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 66
#define TSTEPS 6
#define BX 32
#define BY 8

#define CUDA_CHECK(call)                                                              \
    do {                                                                              \
        cudaError_t err = call;                                                       \
        if (err != cudaSuccess) {                                                     \
            printf("CUDA error at %s %d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err)); \
            exit(EXIT_FAILURE);                                                       \
        }                                                                             \
    } while (0)

__global__ void runJacobiCUDA_kernel1(int n, float *A, float *B) {
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if ((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1)))
        B[i * n + j] = 0.2f * (A[i * n + j] + A[i * n + (j - 1)] + A[i * n + (1 + j)] + A[(1 + i) * n + j] +
                               A[(i - 1) * n + j]);
}

__global__ void runJacobiCUDA_kernel2(int n, float *A, float *B) {
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if ((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1))) A[i * n + j] = B[i * n + j];
}

int main() {
    size_t bytes = N * N * sizeof(float);
    float *A = (float *)malloc(bytes), *B = (float *)malloc(bytes), *A_gpu_out = (float *)malloc(bytes);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i * N + j] = ((float)i * (j + 2) + 10) / N;
            B[i * N + j] = ((float)(i - 4) * (j - 1) + 11) / N;
        }
    float *A_gpu, *B_gpu;
    CUDA_CHECK(cudaMalloc(&A_gpu, bytes));
    CUDA_CHECK(cudaMalloc(&B_gpu, bytes));
    CUDA_CHECK(cudaMemcpy(A_gpu, A, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(B_gpu, B, bytes, cudaMemcpyHostToDevice));

    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    dim3 block(BX, BY);
    dim3 grid((N + BX - 1) / BX, (N + BY - 1) / BY);
    CUDA_CHECK(cudaEventRecord(start));
    for (int t = 0; t < TSTEPS; t++) {
        runJacobiCUDA_kernel1<<<grid, block>>>(N, A_gpu, B_gpu);
        CUDA_CHECK(cudaGetLastError());
        runJacobiCUDA_kernel2<<<grid, block>>>(N, A_gpu, B_gpu);
        CUDA_CHECK(cudaGetLastError());
    }
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    printf("GPU time: %f ms\n", ms);
    if (!(ms > 0)) {
        printf("FAILED: elapsed time %f\n", ms);
        return 1;
    }
    CUDA_CHECK(cudaMemcpy(A_gpu_out, A_gpu, bytes, cudaMemcpyDeviceToHost));

    for (int t = 0; t < TSTEPS; t++) {
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                B[i * N + j] = 0.2f * (A[i * N + j] + A[i * N + (j - 1)] + A[i * N + (1 + j)] + A[(1 + i) * N + j] +
                                       A[(i - 1) * N + j]);
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++) A[i * N + j] = B[i * N + j];
    }
    int fail = 0;
    for (int i = 0; i < N * N; i++)
        if (A[i] != A_gpu_out[i]) {
            if (fail < 4) printf("A[%d]: cpu %.8f gpu %.8f\n", i, A[i], A_gpu_out[i]);
            fail++;
        }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(A_gpu);
    cudaFree(B_gpu);
    free(A), free(B), free(A_gpu_out);
    if (fail) {
        printf("FAILED: %d mismatches\n", fail);
        return 1;
    }
    printf("PASSED jacobi2d\n");
    return 0;
}
