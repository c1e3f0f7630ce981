// SPDX-License-Identifier: Apache-2.0
// The library workload vecadd as an ordinary CUDA program: the library's kernel source and the
// same host calls in the same order (upload a, upload b, allocate c, launch, download c), so
// `stacksim cuda` gives the kernel cycles of `stacksim run --workload vecadd:N`. Argument: N.
#include <vector>

#include "check.h"
#include "workloads/kernels/vecadd.cu"

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 4096;
    std::vector<float> a(n), b(n), c(n);
    for (int i = 0; i < n; ++i) {
        a[i] = static_cast<float>(i % 13) - 6.0f;
        b[i] = 0.25f * static_cast<float>(i % 5);
    }
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
