// SPDX-License-Identifier: Apache-2.0
// The library workload reduction as an ordinary CUDA program: the library's kernel, its inputs
// (tests/cuda/lib_inputs.h) and its host calls in its order (upload the input, allocate and zero
// the sum, launch, download the sum). Arguments: n, seed.
#include <vector>

#include "lib_inputs.h"
#include "workloads/kernels/reduction.cu"

int main(int argc, char** argv) {
    const int n = static_cast<int>(lib_arg(argc, argv, 1, 16384));
    const uint64_t seed = lib_arg(argc, argv, 2, 1);
    const std::vector<uint32_t> in = random_u32(n, sub_seed(seed, 0), 0, 65535);
    unsigned *din, *dout;
    CHECK(cudaMalloc(&din, n * sizeof(unsigned)));
    CHECK(cudaMemcpy(din, in.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&dout, sizeof(unsigned)));
    CHECK(cudaMemset(dout, 0, sizeof(unsigned)));
    reduction<<<lib_ceil_div(lib_ceil_div(n, 2), REDUCTION_BLOCK), REDUCTION_BLOCK>>>(din, dout, n);
    CHECK(cudaGetLastError());
    unsigned sum = 0;
    CHECK(cudaMemcpy(&sum, dout, sizeof(unsigned), cudaMemcpyDeviceToHost));
    uint32_t want = 0;
    for (uint32_t v : in) want += v;  // wraps mod 2^32 exactly as the device does
    EXPECT(sum == want);
    std::printf("PASSED lib_reduction %d\n", n);
    return 0;
}
