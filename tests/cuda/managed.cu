// SPDX-License-Identifier: Apache-2.0
// cudaMallocManaged: the host writes the inputs in place, kernels read and write them, the host
// reads the results after synchronising; twice, so that host writes after a kernel reach the GPU.
#include "check.h"

__global__ void axpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
    const int n = 100000;
    float *x, *y;
    CHECK(cudaMallocManaged(&x, n * sizeof(float)));
    CHECK(cudaMallocManaged(&y, n * sizeof(float)));
    for (int i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i % 100);
        y[i] = 1.0f;
    }
    axpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; ++i) EXPECT(y[i] == 2.0f * static_cast<float>(i % 100) + 1.0f);
    for (int i = 0; i < n; ++i) x[i] = 1.0f;
    axpy<<<(n + 255) / 256, 256>>>(3.0f, x, y, n);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; ++i) EXPECT(y[i] == 2.0f * static_cast<float>(i % 100) + 4.0f);
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    std::printf("PASSED managed\n");
    return 0;
}
