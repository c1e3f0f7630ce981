// SPDX-License-Identifier: Apache-2.0
// Streams and events: kernels on two streams, cudaStreamWaitEvent ordering, cudaEventElapsedTime
// in simulated time (twice the work takes longer), queries that end, stream synchronisation.
#include <vector>

#include "check.h"

__global__ void spin_add(float* x, int n, int reps) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        for (int r = 0; r < reps; ++r) v = v * 0.5f + 1.0f;
        x[i] = v;
    }
}

__global__ void copy_plus(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] + 1.0f;
}

static float expected(float v, int reps) {
    for (int r = 0; r < reps; ++r) v = v * 0.5f + 1.0f;
    return v;
}

int main() {
    const int n = 2048;
    std::vector<float> h(n);
    for (int i = 0; i < n; ++i) h[i] = static_cast<float>(i);
    float *a, *b, *c;
    CHECK(cudaMalloc(&a, n * sizeof(float)));
    CHECK(cudaMalloc(&b, n * sizeof(float)));
    CHECK(cudaMalloc(&c, n * sizeof(float)));
    CHECK(cudaMemcpy(a, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    cudaStream_t s1, s2;
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t t0, t1, t2, done1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    CHECK(cudaEventCreate(&t2));
    CHECK(cudaEventCreateWithFlags(&done1, cudaEventDisableTiming));

    // Elapsed time in simulated time: 64 repetitions take longer than 8. A first kernel takes
    // the launch latency, so that the events time the kernels alone.
    spin_add<<<n / 256, 256, 0, s1>>>(b, n, 1);
    CHECK(cudaEventRecord(t0, s1));
    spin_add<<<n / 256, 256, 0, s1>>>(a, n, 8);
    CHECK(cudaEventRecord(t1, s1));
    spin_add<<<n / 256, 256, 0, s1>>>(a, n, 64);
    CHECK(cudaEventRecord(t2, s1));
    CHECK(cudaEventRecord(done1, s1));
    // s2 reads a only after s1's kernels: the event orders it.
    CHECK(cudaStreamWaitEvent(s2, done1, 0));
    copy_plus<<<n / 256, 256, 0, s2>>>(a, c, n);
    // Polling ends: the simulation runs while the program asks.
    int polls = 0;
    while (cudaStreamQuery(s2) == cudaErrorNotReady) ++polls;
    EXPECT(polls < 3);
    CHECK(cudaEventSynchronize(t2));
    EXPECT(cudaEventQuery(t2) == cudaSuccess);
    float ms1 = 0, ms2 = 0;
    CHECK(cudaEventElapsedTime(&ms1, t0, t1));
    CHECK(cudaEventElapsedTime(&ms2, t1, t2));
    std::printf("elapsed: 8 reps %.6f ms, 64 reps %.6f ms\n", ms1, ms2);
    EXPECT(ms1 > 0 && ms2 > ms1);
    float dummy;
    EXPECT(cudaEventElapsedTime(&dummy, t0, done1) == cudaErrorInvalidResourceHandle);
    cudaGetLastError();

    // Independent work on the second stream, then the default stream after both.
    spin_add<<<n / 256, 256, 0, s2>>>(b, n, 3);
    CHECK(cudaStreamSynchronize(s2));
    CHECK(cudaDeviceSynchronize());
    std::vector<float> ra(n), rb(n), rc(n);
    CHECK(cudaMemcpy(ra.data(), a, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rb.data(), b, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rc.data(), c, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        const float wa = expected(expected(h[i], 8), 64);
        EXPECT(ra[i] == wa);
        EXPECT(rc[i] == wa + 1.0f);
        EXPECT(rb[i] == expected(expected(h[i], 1), 3));
    }
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
    CHECK(cudaEventDestroy(t0));
    std::printf("PASSED streams_events\n");
    return 0;
}
