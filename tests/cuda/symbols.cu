// SPDX-License-Identifier: Apache-2.0
// __constant__ and __device__ variables through the symbol calls: cudaMemcpyToSymbol into a
// __constant__ table (with an offset), a kernel that reads it and accumulates into a __device__
// counter, cudaMemcpyFromSymbol of the counter, cudaGetSymbolSize, cudaGetSymbolAddress with a
// plain cudaMemcpy through the address, an initialised __device__ value, and the errors for a
// pointer that is no symbol and a copy past the end. Checked against the CPU.
#include <vector>

#include "check.h"

__constant__ float c_coef[16];
__device__ int d_total;
__device__ int d_init[4] = {7, 11, 13, 17};

__global__ void weigh(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] * c_coef[i % 16] + d_init[i % 4];
        atomicAdd(&d_total, 1);
    }
}

int main() {
    const int n = 1000;
    std::vector<float> coef(16), in(n), out(n);
    for (int i = 0; i < 16; ++i) coef[i] = 0.25f * i - 1.0f;
    for (int i = 0; i < n; ++i) in[i] = 0.5f * i;
    // The table in two copies: the first 4 entries, then the other 12 at an offset.
    CHECK(cudaMemcpyToSymbol(c_coef, coef.data(), 4 * sizeof(float)));
    CHECK(cudaMemcpyToSymbol(c_coef, coef.data() + 4, 12 * sizeof(float), 4 * sizeof(float)));
    const int zero = 0;
    CHECK(cudaMemcpyToSymbol(d_total, &zero, sizeof(int)));
    size_t size = 0;
    CHECK(cudaGetSymbolSize(&size, c_coef));
    EXPECT(size == 16 * sizeof(float));
    int* total_ptr = nullptr;
    CHECK(cudaGetSymbolAddress(reinterpret_cast<void**>(&total_ptr), d_total));
    EXPECT(total_ptr != nullptr);
    float *din, *dout;
    CHECK(cudaMalloc(&din, n * sizeof(float)));
    CHECK(cudaMalloc(&dout, n * sizeof(float)));
    CHECK(cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    weigh<<<(n + 127) / 128, 128>>>(din, dout, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
    const int init[4] = {7, 11, 13, 17};
    for (int i = 0; i < n; ++i) {
        const float want = in[i] * coef[i % 16] + init[i % 4];
        if (out[i] != want) {
            std::printf("FAILED: out[%d] = %g, expected %g\n", i, out[i], want);
            return 1;
        }
    }
    int total = 0, via_address = 0;
    CHECK(cudaMemcpyFromSymbol(&total, d_total, sizeof(int)));
    CHECK(cudaMemcpy(&via_address, total_ptr, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(total == n);
    EXPECT(via_address == n);
    int tail[2] = {0, 0};
    CHECK(cudaMemcpyFromSymbol(tail, d_init, sizeof(tail), 2 * sizeof(int)));
    EXPECT(tail[0] == 13 && tail[1] == 17);
    // Misuse: no symbol, and a copy past the variable's end.
    int not_a_symbol = 0;
    EXPECT(cudaMemcpyToSymbol(not_a_symbol, &zero, sizeof(int)) == cudaErrorInvalidSymbol);
    EXPECT(cudaMemcpyFromSymbol(tail, d_init, sizeof(tail), 3 * sizeof(int)) == cudaErrorInvalidValue);
    cudaGetLastError();
    std::printf("PASSED symbols %d\n", n);
    return 0;
}
