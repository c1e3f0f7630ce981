// SPDX-License-Identifier: Apache-2.0
// simpleHyperQ-style: two clock()-spinning kernels on each of eight streams, a sum kernel on the
// default stream; the clocks are checked and the streams' kernels must overlap (the measured
// time is below the serial time).
#include <cstdio>
__device__ void clock_block(clock_t *d_o, clock_t clock_count) {
    unsigned int start_clock = (unsigned int)clock();
    clock_t clock_offset = 0;
    while (clock_offset < clock_count) {
        unsigned int end_clock = (unsigned int)clock();
        clock_offset = (clock_t)(end_clock - start_clock);
    }
    d_o[0] = clock_offset;
}
__global__ void kernel_A(clock_t *d_o, clock_t clock_count) { clock_block(d_o, clock_count); }
__global__ void kernel_B(clock_t *d_o, clock_t clock_count) { clock_block(d_o, clock_count); }
__global__ void sum(clock_t *d_clocks, int N) {
    __shared__ clock_t s_clocks[32];
    clock_t my_sum = 0;
    for (int i = threadIdx.x; i < N; i += blockDim.x) my_sum += d_clocks[i];
    s_clocks[threadIdx.x] = my_sum;
    __syncthreads();
    for (int i = warpSize / 2; i > 0; i /= 2) { if (threadIdx.x < i) s_clocks[threadIdx.x] += s_clocks[threadIdx.x + i]; __syncthreads(); }
    if (threadIdx.x == 0) d_clocks[0] = s_clocks[0];
}
int main() {
    int nstreams = 8; float kernel_time = 0.01f; // ms
    int clock_rate; cudaDeviceGetAttribute(&clock_rate, cudaDevAttrClockRate, 0);
    clock_t time_clocks = (clock_t)(kernel_time * clock_rate);
    clock_t total_clocks = 0;
    clock_t *a = 0; cudaMallocHost((void **)&a, sizeof(clock_t));
    clock_t *d_a = 0; cudaMalloc((void **)&d_a, 2 * nstreams * sizeof(clock_t));
    cudaStream_t *streams = (cudaStream_t *)malloc(nstreams * sizeof(cudaStream_t));
    for (int i = 0; i < nstreams; i++) cudaStreamCreate(&(streams[i]));
    cudaEvent_t start_event, stop_event; cudaEventCreate(&start_event); cudaEventCreate(&stop_event);
    cudaEventRecord(start_event, 0);
    for (int i = 0; i < nstreams; ++i) {
        kernel_A<<<1, 1, 0, streams[i]>>>(&d_a[2 * i], time_clocks);
        total_clocks += time_clocks;
        kernel_B<<<1, 1, 0, streams[i]>>>(&d_a[2 * i + 1], time_clocks);
        total_clocks += time_clocks;
    }
    cudaEventRecord(stop_event, 0);
    sum<<<1, 32>>>(d_a, 2 * nstreams);
    cudaMemcpy(a, d_a, sizeof(clock_t), cudaMemcpyDeviceToHost);
    float elapsed_time; cudaEventElapsedTime(&elapsed_time, start_event, stop_event);
    printf("Expected time for serial execution of %d sets of kernels is between approx. %.3fs and %.3fs\n", nstreams, (nstreams + 1) * kernel_time / 1000, 2 * nstreams * kernel_time / 1000);
    printf("Measured time for sample = %.5fs (clocks %ld >= %ld)\n", elapsed_time / 1000.0f, (long)a[0], (long)total_clocks);
    bool ok = a[0] >= total_clocks && elapsed_time < 2 * nstreams * kernel_time;
    printf(ok ? "PASSED simple_hyperq\n" : "FAILED\n"); return !ok;
}
