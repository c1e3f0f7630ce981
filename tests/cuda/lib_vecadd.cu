// SPDX-License-Identifier: Apache-2.0
// The library workload vecadd as an ordinary CUDA program: the library's kernel source, its inputs
// (tests/cuda/lib_inputs.h) and the same host calls in the same order (upload a, upload b,
// allocate c, launch, download c), so `stacksim cuda` gives the kernel cycles of
// `stacksim run --workload vecadd:N --seed SEED`. Arguments: N, seed.
#include <vector>

#include "lib_inputs.h"
#include "workloads/kernels/vecadd.cu"

int main(int argc, char** argv) {
    const int n = static_cast<int>(lib_arg(argc, argv, 1, 4096));
    const uint64_t seed = lib_arg(argc, argv, 2, 1);
    const std::vector<float> a = random_f32(n, sub_seed(seed, 0), -1.0f, 1.0f);
    const std::vector<float> b = random_f32(n, sub_seed(seed, 1), -1.0f, 1.0f);
    std::vector<float> c(n);
    float *da, *db, *dc;
    CHECK(cudaMalloc(&da, n * sizeof(float)));
    CHECK(cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&db, n * sizeof(float)));
    CHECK(cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&dc, n * sizeof(float)));
    vecadd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) EXPECT(c[i] == a[i] + b[i]);
    std::printf("PASSED lib_vecadd %d\n", n);
    return 0;
}
