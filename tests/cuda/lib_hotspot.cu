// SPDX-License-Identifier: Apache-2.0
// The library workload hotspot as an ordinary CUDA program: the library's kernel, its inputs
// (tests/cuda/lib_inputs.h) and its host calls in its order (upload the power and the
// temperatures, allocate the second buffer, 6 time steps in 3 launches of 2, download, free).
// Arguments: n, seed.
#include <algorithm>
#include <utility>
#include <vector>

#include "lib_inputs.h"
#include "workloads/kernels/hotspot.cu"

int main(int argc, char** argv) {
    const int n = static_cast<int>(lib_arg(argc, argv, 1, 64));
    const uint64_t seed = lib_arg(argc, argv, 2, 1);
    const int pyramid = 2, steps = 6;
    const size_t nn = size_t(n) * n, bytes = nn * sizeof(float);
    const std::vector<float> temp_in = random_f32(nn, sub_seed(seed, 0), 300.0f, 350.0f);
    const std::vector<float> power = random_f32(nn, sub_seed(seed, 1), 0.0f, 2.0f);
    // Rodinia's chip constants, reduced to the kernel's float parameters.
    const double t_chip = 0.0005, chip = 0.016, k_si = 100, spec_heat = 1.75e6, factor = 0.5;
    const double gh = chip / n, gw = chip / n;
    const float cap = static_cast<float>(factor * spec_heat * t_chip * gw * gh);
    const float rx = static_cast<float>(gw / (2.0 * k_si * t_chip * gh));
    const float ry = static_cast<float>(gh / (2.0 * k_si * t_chip * gw));
    const float rz = static_cast<float>(t_chip / (k_si * gh * gw));
    const float step = static_cast<float>(0.001 / (3.0e6 / (factor * t_chip * spec_heat)));
    float *d_power, *src, *dst;
    CHECK(cudaMalloc(&d_power, bytes));
    CHECK(cudaMemcpy(d_power, power.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&src, bytes));
    CHECK(cudaMemcpy(src, temp_in.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&dst, bytes));
    const unsigned blocks = lib_ceil_div(n, HS_BLOCK - 2 * pyramid);  // each CTA computes its inner 12 x 12
    for (int t = 0; t < steps; t += pyramid) {
        calculate_temp<<<dim3(blocks, blocks), dim3(HS_BLOCK, HS_BLOCK)>>>(
            std::min(pyramid, steps - t), d_power, src, dst, n, n, pyramid, pyramid, cap, rx, ry, rz, step);
        CHECK(cudaGetLastError());
        std::swap(src, dst);
    }
    std::vector<float> temp(nn);
    CHECK(cudaMemcpy(temp.data(), src, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_power));
    CHECK(cudaFree(src));
    CHECK(cudaFree(dst));
    const float sdc = step / cap, rx_1 = 1.0f / rx, ry_1 = 1.0f / ry, rz_1 = 1.0f / rz;
    std::vector<float> t = temp_in, next(nn);
    for (int s = 0; s < steps; ++s) {
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < n; ++c) {  // clamped neighbours; the PTX's operation order
                const float tc = t[size_t(r) * n + c];
                const float nv = t[size_t(r == 0 ? r : r - 1) * n + c], sv = t[size_t(r + 1 == n ? r : r + 1) * n + c];
                const float wv = t[size_t(r) * n + (c == 0 ? c : c - 1)], ev = t[size_t(r) * n + (c + 1 == n ? c : c + 1)];
                float acc = std::fma(ry_1, (sv + nv) - (tc + tc), power[size_t(r) * n + c]);
                acc = std::fma(rx_1, (ev + wv) - (tc + tc), acc);
                acc = std::fma(rz_1, 80.0f - tc, acc);
                next[size_t(r) * n + c] = std::fma(sdc, acc, tc);
            }
        t.swap(next);
    }
    for (size_t i = 0; i < nn; ++i) EXPECT(lib_near(temp[i], t[i]));
    std::printf("PASSED lib_hotspot %d\n", n);
    return 0;
}
