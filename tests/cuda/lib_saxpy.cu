// SPDX-License-Identifier: Apache-2.0
// The library workload saxpy as an ordinary CUDA program (the library's kernel, its inputs from
// tests/cuda/lib_inputs.h, the same host calls in the same order: upload x, upload y, launch,
// download y). Arguments: n, seed.
#include <vector>

#include "lib_inputs.h"
#include "workloads/kernels/saxpy.cu"

int main(int argc, char** argv) {
    const int n = static_cast<int>(lib_arg(argc, argv, 1, 4096));
    const uint64_t seed = lib_arg(argc, argv, 2, 1);
    const float a = 1.75f;
    const std::vector<float> x = random_f32(n, sub_seed(seed, 0), -1.0f, 1.0f);
    const std::vector<float> y = random_f32(n, sub_seed(seed, 1), -1.0f, 1.0f);
    std::vector<float> r(n);
    float *dx, *dy;
    CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    saxpy<<<(n + 255) / 256, 256>>>(a, dx, dy, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(r.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) EXPECT(r[i] == std::fma(a, x[i], y[i]));
    std::printf("PASSED lib_saxpy %d\n", n);
    return 0;
}
