// SPDX-License-Identifier: Apache-2.0
// The library workload saxpy as an ordinary CUDA program (the library's kernel, the same host
// calls in the same order: upload x, upload y, launch, download y). Argument: n.
#include <vector>

#include "check.h"
#include "workloads/kernels/saxpy.cu"

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 4096;
    const float a = 1.75f;
    std::vector<float> x(n), y(n), r(n);
    for (int i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i % 17) * 0.125f;
        y[i] = static_cast<float>(i % 3) - 1.0f;
    }
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
