// SPDX-License-Identifier: Apache-2.0
// Device printf and assert through `stacksim cuda`: every thread prints a line; with the
// argument "assert" a failing assert makes cudaDeviceSynchronize return cudaErrorAssert.
#include <cassert>
#include <cstdio>
#include <cstring>

#include "check.h"

__global__ void hello(int n) { printf("hello from block %d thread %d of %d\n", blockIdx.x, threadIdx.x, n); }

__global__ void check_positive(const int* v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) assert(v[i] > 0);
}

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "assert") == 0) {
        int h[64];
        for (int i = 0; i < 64; ++i) h[i] = i == 21 ? -1 : 1;
        int* d = nullptr;
        CHECK(cudaMalloc(&d, sizeof h));
        CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
        check_positive<<<1, 64>>>(d, 64);
        cudaError_t e = cudaDeviceSynchronize();
        std::printf("assert: %s\n", cudaGetErrorName(e));
        return 0;
    }
    hello<<<2, 40>>>(40);
    CHECK(cudaDeviceSynchronize());
    std::printf("PASSED printf\n");
    return 0;
}
