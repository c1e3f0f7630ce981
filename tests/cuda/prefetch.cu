// SPDX-License-Identifier: Apache-2.0
// cudaMemPrefetchAsync to the GPU: managed arrays written by the host, then (with argument
// "prefetch") prefetched before the kernel that reads them. Prints the kernel's time (events);
// the test compares far faults and time with and without the prefetch.
#include <cstdio>
#include <cstring>

#include "check.h"

__global__ void scale(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i] + 1.0f;
}

int main(int argc, char** argv) {
    const bool prefetch = argc > 1 && std::strcmp(argv[1], "prefetch") == 0;
    const int n = 1 << 20;  // 4 MB per array
    float *in, *out;
    CHECK(cudaMallocManaged(&in, n * sizeof(float)));
    CHECK(cudaMallocManaged(&out, n * sizeof(float)));
    for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i % 1000);
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    cudaMemLocation gpu = {};
    gpu.type = cudaMemLocationTypeDevice;
    gpu.id = 0;
    if (prefetch) {
        CHECK(cudaMemPrefetchAsync(in, n * sizeof(float), gpu, 0, s));
        CHECK(cudaMemPrefetchAsync(out, n * sizeof(float), gpu, 0, s));
        CHECK(cudaStreamSynchronize(s));
    }
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    CHECK(cudaEventRecord(a, s));
    scale<<<(n + 255) / 256, 256, 0, s>>>(in, out, n);
    CHECK(cudaEventRecord(b, s));
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    for (int i = 0; i < n; ++i) EXPECT(out[i] == 2.0f * static_cast<float>(i % 1000) + 1.0f);
    std::printf("kernel %.3f ms%s\n", ms, prefetch ? " (prefetched)" : "");
    std::printf("PASSED prefetch\n");
    return 0;
}
