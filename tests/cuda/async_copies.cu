// SPDX-License-Identifier: Apache-2.0
// Asynchronous copies: chunks copied in, processed and copied out on one stream, then on four
// streams (simpleStreams' pattern, pinned memory). Prints both times (simulated, events) and
// checks the results; the four-stream run overlaps copies with other chunks' kernels, so it
// must be clearly faster. Also: cudaMemsetAsync is ordered in its stream, an async copy from
// pageable memory (synchronous in effect) still gives the right data, and cudaHostRegister pins
// program memory (with its errors for overlapping and unknown ranges).
#include <cmath>
#include <cstdio>
#include <vector>

#include "check.h"

__global__ void work(const float* in, float* out, int n, int reps) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i];
        for (int r = 0; r < reps; ++r) v = v * 0.75f + 0.5f;
        out[i] = v;
    }
}

__global__ void add_one(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += 1.0f;
}

static float expected(float v, int reps) {
    for (int r = 0; r < reps; ++r) v = std::fma(v, 0.75f, 0.5f);  // nvcc contracts v * 0.75f + 0.5f
    return v;
}

// Runs the chunks on `nstreams` streams (chunk c on stream c % nstreams); returns the time, ms.
static float run(int nstreams, const float* h_in, float* h_out, float* d_in, float* d_out, int n, int chunks, int reps) {
    std::vector<cudaStream_t> s(nstreams);
    for (auto& st : s) CHECK(cudaStreamCreate(&st));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    const int per = n / chunks;
    CHECK(cudaEventRecord(start, 0));
    for (int c = 0; c < chunks; ++c) {
        cudaStream_t st = s[c % nstreams];
        const size_t off = size_t(c) * per;
        CHECK(cudaMemcpyAsync(d_in + off, h_in + off, per * sizeof(float), cudaMemcpyHostToDevice, st));
        work<<<(per + 255) / 256, 256, 0, st>>>(d_in + off, d_out + off, per, reps);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpyAsync(h_out + off, d_out + off, per * sizeof(float), cudaMemcpyDeviceToHost, st));
    }
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    for (auto& st : s) CHECK(cudaStreamDestroy(st));
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    return ms;
}

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 18, chunks = 4, reps = 16;
    float *h_in, *h_out, *d_in, *d_out;
    CHECK(cudaMallocHost(&h_in, n * sizeof(float)));
    CHECK(cudaMallocHost(&h_out, n * sizeof(float)));
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    for (int i = 0; i < n; ++i) h_in[i] = static_cast<float>(i % 1000) * 0.01f;

    const float serial = run(1, h_in, h_out, d_in, d_out, n, chunks, reps);
    for (int i = 0; i < n; ++i) EXPECT(h_out[i] == expected(h_in[i], reps));
    for (int i = 0; i < n; ++i) h_out[i] = -1.0f;
    const float overlapped = run(4, h_in, h_out, d_in, d_out, n, chunks, reps);
    for (int i = 0; i < n; ++i) EXPECT(h_out[i] == expected(h_in[i], reps));
    std::printf("one stream %.3f ms, four streams %.3f ms (%.2fx)\n", serial, overlapped, serial / overlapped);
    EXPECT(overlapped < 0.8f * serial);

    // cudaMemsetAsync, then a kernel, then the copy back, all in one stream: ordered.
    cudaStream_t st;
    CHECK(cudaStreamCreate(&st));
    CHECK(cudaMemsetAsync(d_out, 0, n * sizeof(float), st));
    add_one<<<(n + 255) / 256, 256, 0, st>>>(d_out, n);
    CHECK(cudaMemcpyAsync(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost, st));
    CHECK(cudaStreamSynchronize(st));
    for (int i = 0; i < n; ++i) EXPECT(h_out[i] == 1.0f);

    // Pageable memory: cudaMemcpyAsync still copies the right bytes.
    std::vector<float> pageable(n, 0.0f);
    CHECK(cudaMemcpyAsync(pageable.data(), d_in, n * sizeof(float), cudaMemcpyDeviceToHost, st));
    CHECK(cudaStreamSynchronize(st));
    for (int i = 0; i < n; ++i) EXPECT(pageable[i] == h_in[i]);
    // cudaHostRegister pins program memory: asynchronous copies from and to it.
    std::vector<float> reg(n, 0.0f);
    CHECK(cudaHostRegister(reg.data(), n * sizeof(float), cudaHostRegisterDefault));
    EXPECT(cudaHostRegister(reg.data() + 8, 64, cudaHostRegisterDefault) == cudaErrorHostMemoryAlreadyRegistered);
    CHECK(cudaMemcpyAsync(reg.data(), d_in, n * sizeof(float), cudaMemcpyDeviceToHost, st));
    CHECK(cudaStreamSynchronize(st));
    for (int i = 0; i < n; ++i) EXPECT(reg[i] == h_in[i]);
    CHECK(cudaHostUnregister(reg.data()));
    EXPECT(cudaHostUnregister(reg.data()) == cudaErrorHostMemoryNotRegistered);
    CHECK(cudaStreamDestroy(st));
    CHECK(cudaFreeHost(h_in));
    CHECK(cudaFreeHost(h_out));
    std::printf("PASSED async_copies\n");
    return 0;
}
