// SPDX-License-Identifier: Apache-2.0
// The library workload gemm as an ordinary CUDA program: the library's kernel, its inputs
// (tests/cuda/lib_inputs.h) and its host calls in its order (upload A, B, C, launch, download C).
// Arguments: n, seed.
#include <vector>

#include "lib_inputs.h"
#include "workloads/kernels/gemm.cu"

int main(int argc, char** argv) {
    const int n = static_cast<int>(lib_arg(argc, argv, 1, 64));
    const uint64_t seed = lib_arg(argc, argv, 2, 1);
    const float alpha = 1.5f, beta = 1.2f;
    const size_t nn = size_t(n) * n, bytes = nn * sizeof(float);
    const std::vector<float> a = random_f32(nn, sub_seed(seed, 0), 0.0f, 1.0f);
    const std::vector<float> b = random_f32(nn, sub_seed(seed, 1), 0.0f, 1.0f);
    const std::vector<float> c_in = random_f32(nn, sub_seed(seed, 2), 0.0f, 1.0f);
    float *da, *db, *dc;
    CHECK(cudaMalloc(&da, bytes));
    CHECK(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&db, bytes));
    CHECK(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&dc, bytes));
    CHECK(cudaMemcpy(dc, c_in.data(), bytes, cudaMemcpyHostToDevice));
    const dim3 block(32, 8), grid(lib_ceil_div(n, 32), lib_ceil_div(n, 8));
    gemm_kernel<<<grid, block>>>(da, db, dc, n, alpha, beta);
    CHECK(cudaGetLastError());
    std::vector<float> c(nn);
    CHECK(cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost));
    std::vector<float> row(n);
    for (int i = 0; i < n; ++i) {
        // c *= beta, then c = fma(alpha * a[i][k], b[k][j], c) for k in order, as nvcc emits it.
        for (int j = 0; j < n; ++j) row[j] = c_in[size_t(i) * n + j] * beta;
        for (int k = 0; k < n; ++k) {
            const float aik = alpha * a[size_t(i) * n + k];
            for (int j = 0; j < n; ++j) row[j] = std::fma(aik, b[size_t(k) * n + j], row[j]);
        }
        for (int j = 0; j < n; ++j) EXPECT(lib_near(c[size_t(i) * n + j], row[j]));
    }
    std::printf("PASSED lib_gemm %d\n", n);
    return 0;
}
