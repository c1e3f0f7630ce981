// SPDX-License-Identifier: Apache-2.0
// The library workload atax as an ordinary CUDA program: the library's kernels, its inputs
// (tests/cuda/lib_inputs.h) and its host calls in its order (upload A and x, allocate and zero y
// and tmp, launch both kernels, download tmp and y). Arguments: n, seed.
#include <vector>

#include "lib_inputs.h"
#include "workloads/kernels/atax.cu"

int main(int argc, char** argv) {
    const int n = static_cast<int>(lib_arg(argc, argv, 1, 128));
    const uint64_t seed = lib_arg(argc, argv, 2, 1);
    const size_t nn = size_t(n) * n;
    const std::vector<float> a = random_f32(nn, sub_seed(seed, 0), 0.0f, 1.0f);
    const std::vector<float> x = random_f32(n, sub_seed(seed, 1), 0.0f, 1.0f);
    float *da, *dx, *dy, *dtmp;
    CHECK(cudaMalloc(&da, nn * sizeof(float)));
    CHECK(cudaMemcpy(da, a.data(), nn * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CHECK(cudaMalloc(&dtmp, n * sizeof(float)));
    CHECK(cudaMemset(dy, 0, n * sizeof(float)));
    CHECK(cudaMemset(dtmp, 0, n * sizeof(float)));
    atax_kernel1<<<lib_ceil_div(n, 256), 256>>>(da, dx, dtmp, n);
    CHECK(cudaGetLastError());
    atax_kernel2<<<lib_ceil_div(n, 256), 256>>>(da, dy, dtmp, n);
    CHECK(cudaGetLastError());
    std::vector<float> tmp(n), y(n);
    CHECK(cudaMemcpy(tmp.data(), dtmp, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    std::vector<float> want_tmp(n, 0.0f), want_y(n, 0.0f);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) want_tmp[i] = std::fma(a[size_t(i) * n + j], x[j], want_tmp[i]);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) want_y[j] = std::fma(a[size_t(i) * n + j], want_tmp[i], want_y[j]);
    for (int i = 0; i < n; ++i) EXPECT(lib_near(tmp[i], want_tmp[i]) && lib_near(y[i], want_y[i]));
    std::printf("PASSED lib_atax %d\n", n);
    return 0;
}
