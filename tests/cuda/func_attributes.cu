// SPDX-License-Identifier: Apache-2.0
// cudaFuncGetAttributes reports the PTX version the kernel was compiled for (libraries such as
// CUB choose their tuning policy by it), and its static shared memory. Prints "ptxVersion N".
#include <cstdio>

#include "check.h"

__global__ void with_shared(float* out) {
    __shared__ float tile[64];
    tile[threadIdx.x % 64] = static_cast<float>(threadIdx.x);
    __syncthreads();
    out[threadIdx.x] = tile[(threadIdx.x + 1) % 64];
}

int main() {
    cudaFuncAttributes a{};
    CHECK(cudaFuncGetAttributes(&a, with_shared));
    EXPECT(a.sharedSizeBytes == 64 * sizeof(float));
    EXPECT(a.binaryVersion == a.ptxVersion);
    std::printf("ptxVersion %d\n", a.ptxVersion);
    float* d;
    CHECK(cudaMalloc(&d, 64 * sizeof(float)));
    with_shared<<<1, 64>>>(d);
    CHECK(cudaDeviceSynchronize());
    std::printf("PASSED func_attributes\n");
    return 0;
}
