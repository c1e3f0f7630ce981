// SPDX-License-Identifier: Apache-2.0
// The library workload 2dconv as an ordinary CUDA program: the library's kernel, its inputs
// (tests/cuda/lib_inputs.h) and its host calls in its order (upload A, allocate and zero B,
// launch, download B). Arguments: n, seed.
#include <vector>

#include "lib_inputs.h"
#include "workloads/kernels/2dconv.cu"

int main(int argc, char** argv) {
    const int n = static_cast<int>(lib_arg(argc, argv, 1, 128));
    const uint64_t seed = lib_arg(argc, argv, 2, 1);
    const size_t nn = size_t(n) * n, bytes = nn * sizeof(float);
    const std::vector<float> a = random_f32(nn, sub_seed(seed, 0), 0.0f, 1.0f);
    float *da, *db;
    CHECK(cudaMalloc(&da, bytes));
    CHECK(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&db, bytes));
    CHECK(cudaMemset(db, 0, bytes));  // the kernel leaves B's border untouched
    const dim3 block(32, 8), grid(lib_ceil_div(n, 32), lib_ceil_div(n, 8));
    conv2d<<<grid, block>>>(da, db, n);
    CHECK(cudaGetLastError());
    std::vector<float> b(nn);
    CHECK(cudaMemcpy(b.data(), db, bytes, cudaMemcpyDeviceToHost));
    auto at = [&](int r, int c) { return a[size_t(r) * n + c]; };
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            float want = 0.0f;
            if (i > 0 && j > 0 && i + 1 < n && j + 1 < n) {  // the kernel's order of fused terms
                want = at(i - 1, j) * 0.5f;
                want = std::fma(at(i - 1, j - 1), 0.2f, want);
                want = std::fma(at(i - 1, j + 1), -0.8f, want);
                want = std::fma(at(i, j - 1), -0.3f, want);
                want = std::fma(at(i, j), 0.6f, want);
                want = std::fma(at(i, j + 1), -0.9f, want);
                want = std::fma(at(i + 1, j - 1), 0.4f, want);
                want = std::fma(at(i + 1, j), 0.7f, want);
                want = std::fma(at(i + 1, j + 1), 0.10f, want);
            }
            EXPECT(lib_near(b[size_t(i) * n + j], want));
        }
    std::printf("PASSED lib_2dconv %d\n", n);
    return 0;
}
