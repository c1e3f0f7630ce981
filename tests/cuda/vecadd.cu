// SPDX-License-Identifier: Apache-2.0
// c = a + b with cudaMalloc, cudaMemcpy and <<<>>>; checks every element on the CPU.
// Optional argument: the process exit status after a passing check ("crash": a null write).
#include <cstring>
#include <vector>

#include "check.h"

__global__ void vecadd(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int main(int argc, char** argv) {
    const int n = 10000;
    std::vector<float> a(n), b(n), c(n, 0.0f);
    for (int i = 0; i < n; ++i) {
        a[i] = 0.5f * i;
        b[i] = 1.0f - i;
    }
    float *da, *db, *dc;
    CHECK(cudaMalloc(&da, n * sizeof(float)));
    CHECK(cudaMalloc(&db, n * sizeof(float)));
    CHECK(cudaMalloc(&dc, n * sizeof(float)));
    CHECK(cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyDefault));
    vecadd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
        if (c[i] != a[i] + b[i]) {
            std::printf("FAILED: c[%d] = %g, expected %g\n", i, c[i], a[i] + b[i]);
            return 1;
        }
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    std::printf("PASSED vecadd %d\n", n);
    if (argc > 1 && std::strcmp(argv[1], "crash") == 0) {
        std::fflush(stdout);
        volatile int* p = nullptr;
        *p = 1;
    }
    if (argc > 1) std::exit(std::atoi(argv[1]));
    return 0;
}
