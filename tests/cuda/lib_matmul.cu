// SPDX-License-Identifier: Apache-2.0
// The library workload matmul as an ordinary CUDA program (the library's tiled kernel, its inputs
// from tests/cuda/lib_inputs.h, the same host calls in the same order: upload A, upload B,
// allocate C, launch, download C). Arguments: n, seed.
#include <cmath>
#include <vector>

#include "lib_inputs.h"
#include "workloads/kernels/matmul.cu"

int main(int argc, char** argv) {
    const int n = static_cast<int>(lib_arg(argc, argv, 1, 64));
    const uint64_t seed = lib_arg(argc, argv, 2, 1);
    const std::vector<float> a = random_f32(size_t(n) * n, sub_seed(seed, 0), -1.0f, 1.0f);
    const std::vector<float> b = random_f32(size_t(n) * n, sub_seed(seed, 1), -1.0f, 1.0f);
    std::vector<float> c(size_t(n) * n);
    const size_t bytes = a.size() * sizeof(float);
    float *da, *db, *dc;
    CHECK(cudaMalloc(&da, bytes));
    CHECK(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&db, bytes));
    CHECK(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&dc, bytes));
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
    matmul<<<grid, block>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            float acc = 0.0f;  // the kernel's order: k = 0..n-1, fused multiply-add
            for (int k = 0; k < n; ++k) acc = std::fma(a[size_t(i) * n + k], b[size_t(k) * n + j], acc);
            EXPECT(c[size_t(i) * n + j] == acc);
        }
    std::printf("PASSED lib_matmul %d\n", n);
    return 0;
}
