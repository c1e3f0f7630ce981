// SPDX-License-Identifier: Apache-2.0
// A kernel-heavy CUDA program for measuring the runtime library's own host cost (docs/
// cuda_programs.md#host-cost): many small launches between one upload and one download.
// Arguments: launches (default 200), elements (default 4096).
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void saxpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

int main(int argc, char** argv) {
    const int launches = argc > 1 ? std::atoi(argv[1]) : 200;
    const int n = argc > 2 ? std::atoi(argv[2]) : 4096;
    std::vector<float> x(n, 1.0f), y(n, 0.0f);
    float *dx, *dy;
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&dy, n * sizeof(float));
    cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    for (int l = 0; l < launches; ++l) saxpy<<<(n + 255) / 256, 256>>>(1.0f, dx, dy, n);
    cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i)
        if (y[i] != static_cast<float>(launches)) {
            std::printf("FAILED: y[%d] = %g\n", i, y[i]);
            return 1;
        }
    std::printf("PASSED %d launches\n", launches);
    return 0;
}
