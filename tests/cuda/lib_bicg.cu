// SPDX-License-Identifier: Apache-2.0
// The library workload bicg as an ordinary CUDA program: the library's kernels, its inputs
// (tests/cuda/lib_inputs.h) and its host calls in its order (upload A, r, p, allocate s and q,
// launch both kernels, download s and q). Arguments: n, seed.
#include <vector>

#include "lib_inputs.h"
#include "workloads/kernels/bicg.cu"

int main(int argc, char** argv) {
    const int n = static_cast<int>(lib_arg(argc, argv, 1, 128));
    const uint64_t seed = lib_arg(argc, argv, 2, 1);
    const size_t nn = size_t(n) * n;
    const std::vector<float> a = random_f32(nn, sub_seed(seed, 0), 0.0f, 1.0f);
    const std::vector<float> r = random_f32(n, sub_seed(seed, 1), 0.0f, 1.0f);
    const std::vector<float> p = random_f32(n, sub_seed(seed, 2), 0.0f, 1.0f);
    float *da, *dr, *dp, *ds, *dq;
    CHECK(cudaMalloc(&da, nn * sizeof(float)));
    CHECK(cudaMemcpy(da, a.data(), nn * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&dr, n * sizeof(float)));
    CHECK(cudaMemcpy(dr, r.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&dp, n * sizeof(float)));
    CHECK(cudaMemcpy(dp, p.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&ds, n * sizeof(float)));
    CHECK(cudaMalloc(&dq, n * sizeof(float)));
    bicg_kernel1<<<lib_ceil_div(n, 256), 256>>>(da, dr, ds, n);
    CHECK(cudaGetLastError());
    bicg_kernel2<<<lib_ceil_div(n, 256), 256>>>(da, dp, dq, n);
    CHECK(cudaGetLastError());
    std::vector<float> s(n), q(n);
    CHECK(cudaMemcpy(s.data(), ds, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(q.data(), dq, n * sizeof(float), cudaMemcpyDeviceToHost));
    std::vector<float> want_s(n, 0.0f), want_q(n, 0.0f);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) want_s[j] = std::fma(a[size_t(i) * n + j], r[i], want_s[j]);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) want_q[i] = std::fma(a[size_t(i) * n + j], p[j], want_q[i]);
    for (int i = 0; i < n; ++i) EXPECT(lib_near(s[i], want_s[i]) && lib_near(q[i], want_q[i]));
    std::printf("PASSED lib_bicg %d\n", n);
    return 0;
}
