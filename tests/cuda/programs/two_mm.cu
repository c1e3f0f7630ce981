// SPDX-License-Identifier: Apache-2.0
/**
 * 2mm.cu: PolyBench/GPU-style two matrix multiplications, tmp = A*B, E = tmp*C (two kernels),
 * checked against the CPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <assert.h>
#include <cuda.h>

#define PERCENT_DIFF_ERROR_THRESHOLD 0.05
#define NI 64
#define NJ 64
#define NK 48
#define NL 56
#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

typedef float DATA_TYPE;

#define cudaCheckErrors(msg)                                                                        \
    do {                                                                                            \
        cudaError_t __err = cudaGetLastError();                                                     \
        if (__err != cudaSuccess) {                                                                 \
            fprintf(stderr, "Fatal error: %s (%s at %s:%d)\n", msg, cudaGetErrorString(__err), __FILE__, \
                    __LINE__);                                                                      \
            fprintf(stderr, "*** FAILED - ABORTING\n");                                             \
            exit(1);                                                                                \
        }                                                                                           \
    } while (0)

float percentDiff(double val1, double val2) {
    if ((fabs(val1) < 0.01) && (fabs(val2) < 0.01)) return 0.0f;
    return 100.0f * (fabs(fabs(val1 - val2) / fabs(val1 + 0.00000001f)));
}

void init_array(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C, DATA_TYPE *D) {
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NK; j++) A[i * NI + j] = ((DATA_TYPE)i * j) / NI;
    for (int i = 0; i < NK; i++)
        for (int j = 0; j < NJ; j++) B[i * NK + j] = ((DATA_TYPE)i * (j + 1)) / NJ;
    for (int i = 0; i < NL; i++)
        for (int j = 0; j < NJ; j++) C[i * NL + j] = ((DATA_TYPE)i * (j + 3)) / NL;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NL; j++) D[i * NL + j] = ((DATA_TYPE)i * (j + 2)) / NK;
}

__global__ void mm2_kernel1(DATA_TYPE *tmp, DATA_TYPE *A, DATA_TYPE *B) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if ((i < NI) && (j < NJ)) {
        tmp[i * NJ + j] = 0;
        for (int k = 0; k < NK; k++) tmp[i * NJ + j] += A[i * NK + k] * B[k * NJ + j];
    }
}

__global__ void mm2_kernel2(DATA_TYPE *tmp, DATA_TYPE *C, DATA_TYPE *D) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if ((i < NI) && (j < NL)) {
        D[i * NL + j] = 0;
        for (int k = 0; k < NJ; k++) D[i * NL + j] += tmp[i * NJ + k] * C[k * NL + j];
    }
}

void mm2_cpu(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C, DATA_TYPE *D, DATA_TYPE *tmp) {
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++) {
            tmp[i * NJ + j] = 0;
            for (int k = 0; k < NK; ++k) tmp[i * NJ + j] += A[i * NK + k] * B[k * NJ + j];
        }
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NL; j++) {
            D[i * NL + j] = 0;
            for (int k = 0; k < NJ; ++k) D[i * NL + j] += tmp[i * NJ + k] * C[k * NL + j];
        }
}

int main(int argc, char **argv) {
    DATA_TYPE *A = (DATA_TYPE *)malloc(NI * NK * sizeof(DATA_TYPE) * 2);
    DATA_TYPE *B = (DATA_TYPE *)malloc(NK * NJ * sizeof(DATA_TYPE) * 2);
    DATA_TYPE *C = (DATA_TYPE *)malloc(NL * NJ * sizeof(DATA_TYPE) * 2);
    DATA_TYPE *D = (DATA_TYPE *)malloc(NI * NL * sizeof(DATA_TYPE) * 2);
    DATA_TYPE *tmp = (DATA_TYPE *)malloc(NI * NJ * sizeof(DATA_TYPE));
    DATA_TYPE *D_outputFromGpu = (DATA_TYPE *)malloc(NI * NL * sizeof(DATA_TYPE));
    init_array(A, B, C, D);

    DATA_TYPE *tmp_gpu, *A_gpu, *B_gpu, *C_gpu, *D_gpu;
    cudaMalloc((void **)&tmp_gpu, sizeof(DATA_TYPE) * NI * NJ);
    cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * NI * NK);
    cudaMalloc((void **)&B_gpu, sizeof(DATA_TYPE) * NK * NJ);
    cudaMalloc((void **)&C_gpu, sizeof(DATA_TYPE) * NL * NJ);
    cudaMalloc((void **)&D_gpu, sizeof(DATA_TYPE) * NI * NL);
    cudaCheckErrors("cudaMalloc failure");
    cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * NI * NK, cudaMemcpyHostToDevice);
    cudaMemcpy(B_gpu, B, sizeof(DATA_TYPE) * NK * NJ, cudaMemcpyHostToDevice);
    cudaMemcpy(C_gpu, C, sizeof(DATA_TYPE) * NL * NJ, cudaMemcpyHostToDevice);
    cudaMemcpy(D_gpu, D, sizeof(DATA_TYPE) * NI * NL, cudaMemcpyHostToDevice);
    cudaCheckErrors("cudaMemcpy H2D failure");

    dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
    dim3 grid1((size_t)ceil(((float)NJ) / ((float)block.x)), (size_t)ceil(((float)NI) / ((float)block.y)));
    dim3 grid2((size_t)ceil(((float)NL) / ((float)block.x)), (size_t)ceil(((float)NI) / ((float)block.y)));
    mm2_kernel1<<<grid1, block>>>(tmp_gpu, A_gpu, B_gpu);
    cudaCheckErrors("kernel1 launch failure");
    cudaDeviceSynchronize();
    mm2_kernel2<<<grid2, block>>>(tmp_gpu, C_gpu, D_gpu);
    cudaCheckErrors("kernel2 launch failure");
    cudaDeviceSynchronize();
    cudaMemcpy(D_outputFromGpu, D_gpu, sizeof(DATA_TYPE) * NI * NL, cudaMemcpyDeviceToHost);
    cudaCheckErrors("cudaMemcpy D2H failure");

    mm2_cpu(A, B, C, D, tmp);
    int fail = 0;
    for (int i = 0; i < NI * NL; i++)
        if (percentDiff(D[i], D_outputFromGpu[i]) > PERCENT_DIFF_ERROR_THRESHOLD) fail++;
    printf("Non-Matching CPU-GPU Outputs Beyond Error Threshold of %4.2f Percent: %d\n", PERCENT_DIFF_ERROR_THRESHOLD,
           fail);
    cudaFree(tmp_gpu);
    cudaFree(A_gpu);
    cudaFree(B_gpu);
    cudaFree(C_gpu);
    cudaFree(D_gpu);
    free(A), free(B), free(C), free(D), free(tmp), free(D_outputFromGpu);
    if (fail) return 1;
    printf("PASSED two_mm\n");
    return 0;
}
