// SPDX-License-Identifier: Apache-2.0
// simpleStreams-style: pinned memory (cudaHostAlloc / cudaMallocHost), several streams each
// doing H2D copy, kernel and D2H copy asynchronously, timed with events; checked on the host.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define checkCudaErrors(val)                                                                          \
    do {                                                                                              \
        cudaError_t e = (val);                                                                        \
        if (e != cudaSuccess) {                                                                       \
            fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", __FILE__, __LINE__, (int)e,   \
                    cudaGetErrorName(e), #val);                                                       \
            exit(EXIT_FAILURE);                                                                       \
        }                                                                                             \
    } while (0)

__global__ void init_array(int *g_data, int *factor, int num_iterations) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = 0; i < num_iterations; i++) g_data[idx] += *factor;
}

bool correct_data(int *a, const int n, const int c) {
    for (int i = 0; i < n; i++) {
        if (a[i] != c) {
            printf("%d: %d %d\n", i, a[i], c);
            return false;
        }
    }
    return true;
}

int main(int argc, char **argv) {
    int nstreams = 4;
    int nreps = 2;
    int n = 4 * 1024;
    int nbytes = n * sizeof(int);
    dim3 threads, blocks;
    float elapsed_time, time_memcpy, time_kernel;
    int niterations = 5;

    int c = 5;
    int *h_a = 0;
    checkCudaErrors(cudaHostAlloc((void **)&h_a, nbytes, cudaHostAllocDefault));
    int *h_c = 0;
    checkCudaErrors(cudaMallocHost((void **)&h_c, sizeof(int)));
    *h_c = c;
    int *d_a = 0, *d_c = 0;
    checkCudaErrors(cudaMalloc((void **)&d_a, nbytes));
    checkCudaErrors(cudaMemset(d_a, 0x0, nbytes));
    checkCudaErrors(cudaMalloc((void **)&d_c, sizeof(int)));
    checkCudaErrors(cudaMemcpy(d_c, h_c, sizeof(int), cudaMemcpyHostToDevice));

    cudaStream_t *streams = (cudaStream_t *)malloc(nstreams * sizeof(cudaStream_t));
    for (int i = 0; i < nstreams; i++) checkCudaErrors(cudaStreamCreate(&(streams[i])));

    cudaEvent_t start_event, stop_event;
    checkCudaErrors(cudaEventCreateWithFlags(&start_event, cudaEventBlockingSync));
    checkCudaErrors(cudaEventCreateWithFlags(&stop_event, cudaEventBlockingSync));

    checkCudaErrors(cudaEventRecord(start_event, 0));
    checkCudaErrors(cudaMemcpyAsync(h_a, d_a, nbytes, cudaMemcpyDeviceToHost, streams[0]));
    checkCudaErrors(cudaEventRecord(stop_event, 0));
    checkCudaErrors(cudaEventSynchronize(stop_event));
    checkCudaErrors(cudaEventElapsedTime(&time_memcpy, start_event, stop_event));
    printf("memcopy:\t%.2f\n", time_memcpy);

    threads = dim3(128, 1);
    blocks = dim3(n / threads.x, 1);
    checkCudaErrors(cudaEventRecord(start_event, 0));
    init_array<<<blocks, threads, 0, streams[0]>>>(d_a, d_c, niterations);
    checkCudaErrors(cudaEventRecord(stop_event, 0));
    checkCudaErrors(cudaEventSynchronize(stop_event));
    checkCudaErrors(cudaEventElapsedTime(&time_kernel, start_event, stop_event));
    printf("kernel:\t\t%.2f\n", time_kernel);

    // Non-streamed reference timing.
    threads = dim3(128, 1);
    blocks = dim3(n / threads.x, 1);
    checkCudaErrors(cudaEventRecord(start_event, 0));
    for (int k = 0; k < nreps; k++) {
        init_array<<<blocks, threads>>>(d_a, d_c, niterations);
        checkCudaErrors(cudaMemcpy(h_a, d_a, nbytes, cudaMemcpyDeviceToHost));
    }
    checkCudaErrors(cudaEventRecord(stop_event, 0));
    checkCudaErrors(cudaEventSynchronize(stop_event));
    checkCudaErrors(cudaEventElapsedTime(&elapsed_time, start_event, stop_event));
    printf("non-streamed:\t%.2f\n", elapsed_time / nreps);

    // Streamed: each stream works on its own part.
    blocks = dim3(n / (nstreams * threads.x), 1);
    memset(h_a, 255, nbytes);
    checkCudaErrors(cudaMemset(d_a, 0, nbytes));
    checkCudaErrors(cudaEventRecord(start_event, 0));
    for (int k = 0; k < nreps; k++) {
        for (int i = 0; i < nstreams; i++)
            init_array<<<blocks, threads, 0, streams[i]>>>(d_a + i * n / nstreams, d_c, niterations);
        for (int i = 0; i < nstreams; i++)
            checkCudaErrors(cudaMemcpyAsync(h_a + i * n / nstreams, d_a + i * n / nstreams, nbytes / nstreams,
                                            cudaMemcpyDeviceToHost, streams[i]));
    }
    checkCudaErrors(cudaEventRecord(stop_event, 0));
    checkCudaErrors(cudaEventSynchronize(stop_event));
    checkCudaErrors(cudaEventElapsedTime(&elapsed_time, start_event, stop_event));
    printf("%d streams:\t%.2f\n", nstreams, elapsed_time / nreps);

    bool bResults = correct_data(h_a, n, c * nreps * niterations);
    for (int i = 0; i < nstreams; i++) checkCudaErrors(cudaStreamDestroy(streams[i]));
    checkCudaErrors(cudaEventDestroy(start_event));
    checkCudaErrors(cudaEventDestroy(stop_event));
    checkCudaErrors(cudaFreeHost(h_a));
    checkCudaErrors(cudaFreeHost(h_c));
    checkCudaErrors(cudaFree(d_a));
    checkCudaErrors(cudaFree(d_c));
    free(streams);
    if (!bResults || !(time_kernel > 0) || !(elapsed_time > 0)) {
        printf("FAILED simple_streams\n");
        return 1;
    }
    printf("PASSED simple_streams\n");
    return 0;
}
