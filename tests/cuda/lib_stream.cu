// SPDX-License-Identifier: Apache-2.0
// The library workload stream (the float4 copy) as an ordinary CUDA program: the library's kernel,
// its inputs (tests/cuda/lib_inputs.h) and its host calls in its order (upload a, allocate b,
// launch at most 1,024 CTAs of 256 threads, download b). Arguments: n (float4 elements), seed.
#include <algorithm>
#include <cstring>
#include <vector>

#include "lib_inputs.h"
#include "workloads/kernels/stream.cu"

int main(int argc, char** argv) {
    const int n = static_cast<int>(lib_arg(argc, argv, 1, 262144));
    const uint64_t seed = lib_arg(argc, argv, 2, 1);
    const std::vector<float> a = random_f32(size_t(n) * 4, sub_seed(seed, 0), -1.0f, 1.0f);
    const size_t bytes = a.size() * sizeof(float);
    float4 *da, *db;
    CHECK(cudaMalloc(&da, bytes));
    CHECK(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&db, bytes));
    stream_copy<<<std::min(lib_ceil_div(n, 256), 1024u), 256>>>(da, db, n);
    CHECK(cudaGetLastError());
    std::vector<float> b(a.size());
    CHECK(cudaMemcpy(b.data(), db, bytes, cudaMemcpyDeviceToHost));
    EXPECT(std::memcmp(a.data(), b.data(), bytes) == 0);
    std::printf("PASSED lib_stream %d\n", n);
    return 0;
}
