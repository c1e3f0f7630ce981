// SPDX-License-Identifier: Apache-2.0
// asyncAPI-style: async copies and a kernel on the default stream, an event polled with
// cudaEventQuery while the CPU works, then the result checked; plus a host callback.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define checkCudaErrors(val)                                                                  \
    do {                                                                                      \
        cudaError_t e = (val);                                                                \
        if (e) {                                                                              \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
            exit(EXIT_FAILURE);                                                               \
        }                                                                                     \
    } while (0)

__global__ void increment_kernel(int *g_data, int inc_value) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    g_data[idx] = g_data[idx] + inc_value;
}

bool correct_output(int *data, const int n, const int x) {
    for (int i = 0; i < n; i++)
        if (data[i] != x) {
            printf("Error! data[%d] = %d, ref = %d\n", i, data[i], x);
            return false;
        }
    return true;
}

static int callbacks = 0;
void CUDART_CB myHostCallback(void *data) {
    int *p = (int *)data;
    callbacks += *p;
}
void CUDART_CB myStreamCallback(cudaStream_t stream, cudaError_t status, void *data) {
    if (status == cudaSuccess) callbacks += 100 * *(int *)data;
}

int main(int argc, char *argv[]) {
    int n = 16 * 1024;
    int nbytes = n * sizeof(int);
    int value = 26;
    int *a = 0;
    checkCudaErrors(cudaMallocHost((void **)&a, nbytes));
    memset(a, 0, nbytes);
    int *d_a = 0;
    checkCudaErrors(cudaMalloc((void **)&d_a, nbytes));
    checkCudaErrors(cudaMemset(d_a, 255, nbytes));

    dim3 threads = dim3(512, 1);
    dim3 blocks = dim3(n / threads.x, 1);
    cudaEvent_t start, stop;
    checkCudaErrors(cudaEventCreate(&start));
    checkCudaErrors(cudaEventCreate(&stop));
    checkCudaErrors(cudaDeviceSynchronize());

    cudaEventRecord(start, 0);
    cudaMemcpyAsync(d_a, a, nbytes, cudaMemcpyHostToDevice, 0);
    increment_kernel<<<blocks, threads, 0, 0>>>(d_a, value);
    cudaMemcpyAsync(a, d_a, nbytes, cudaMemcpyDeviceToHost, 0);
    cudaEventRecord(stop, 0);

    unsigned long int counter = 0;
    while (cudaEventQuery(stop) == cudaErrorNotReady) counter++;
    float gpu_time = 0.0f;
    checkCudaErrors(cudaEventElapsedTime(&gpu_time, start, stop));
    printf("time spent executing by the GPU: %.5f ms\n", gpu_time);
    printf("CPU executed %lu iterations while waiting for GPU to finish\n", counter);
    bool bFinalResults = correct_output(a, n, value);

    // Host functions run in stream order after the work before them.
    cudaStream_t s;
    checkCudaErrors(cudaStreamCreate(&s));
    int one = 1, two = 2;
    increment_kernel<<<blocks, threads, 0, s>>>(d_a, 1);
    checkCudaErrors(cudaLaunchHostFunc(s, myHostCallback, &one));
    checkCudaErrors(cudaStreamAddCallback(s, myStreamCallback, &two, 0));
    checkCudaErrors(cudaStreamSynchronize(s));
    checkCudaErrors(cudaMemcpy(a, d_a, nbytes, cudaMemcpyDeviceToHost));
    bFinalResults = bFinalResults && correct_output(a, n, value + 1) && callbacks == 201;
    printf("callbacks: %d\n", callbacks);
    checkCudaErrors(cudaStreamDestroy(s));
    checkCudaErrors(cudaEventDestroy(start));
    checkCudaErrors(cudaEventDestroy(stop));
    checkCudaErrors(cudaFreeHost(a));
    checkCudaErrors(cudaFree(d_a));
    if (!bFinalResults || !(gpu_time > 0)) {
        printf("FAILED async_api\n");
        return 1;
    }
    printf("PASSED async_api\n");
    return 0;
}
