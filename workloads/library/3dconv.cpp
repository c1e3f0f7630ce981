// SPDX-License-Identifier: Apache-2.0
// 3dconv workload (Polybench-GPU 3DCONV): 3x3x3 stencil on n^3 floats, one launch per interior
// plane; block (32,8), grid (ceil(n/32), ceil(n/8)).
#include <cmath>
#include <cstdint>
#include <vector>

#include "workloads/library/library_workload.h"
#include "workloads/library/polybench_inputs.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlockX = 32, kBlockY = 8;  // Polybench-GPU's DIM_THREAD_BLOCK_X/Y
constexpr uint32_t kMaxN = 1290;               // n^3 must fit the kernel's int indices

/// B[i][j][k] for an interior point: Polybench's 15 terms, in the order nvcc emits them (the
/// second term's product first, then fma.rn.f32 of the first and of terms 3..15).
float conv_point(const std::vector<float>& a, size_t n, size_t i, size_t j, size_t k) {
    auto at = [&](size_t x, size_t y, size_t z) { return a[(x * n + y) * n + z]; };
    const float p = at(i - 1, j - 1, k - 1), q = at(i + 1, j - 1, k - 1);
    const float terms[13][2] = {
        {5, p}, {7, q}, {-8, p}, {10, q},
        {-3, at(i, j - 1, k)}, {6, at(i, j, k)}, {-9, at(i + 1, j + 1, k)},
        {2, at(i - 1, j - 1, k + 1)}, {4, at(i + 1, j - 1, k + 1)}, {5, at(i - 1, j, k + 1)},
        {7, at(i + 1, j, k + 1)}, {-8, at(i - 1, j + 1, k + 1)}, {10, at(i + 1, j + 1, k + 1)}};
    float acc = std::fma(p, 2.0f, q * 4.0f);
    for (const auto& t : terms) acc = std::fma(t[1], t[0], acc);
    return acc;
}

class Conv3d final : public LibraryWorkload {
public:
    Conv3d(uint32_t n, uint64_t seed, PolybenchInputs in)
        : LibraryWorkload("3dconv.ptx"),
          m_n(n),
          // Polybench: A[i][j][k] = i % 12 + 2 (j % 7) + 3 (k % 13), as rows of n*n (i) by n (k).
          m_a(polybench_2d(in, n, size_t{n} * n, sub_seed(seed, 0), [n](size_t i, size_t jk) {
              return static_cast<float>(i % 12 + 2 * ((jk / n) % 7) + 3 * ((jk % n) % 13));
          })) {}

    void execute(Device& dev) override {
        const DevPtr a = dev.upload(m_a);
        const DevPtr b = dev.zeros<float>(m_a.size());  // the kernel leaves B's border untouched
        const auto n = static_cast<int32_t>(m_n);
        for (int32_t i = 1; i + 1 < n; ++i)
            dev.launch("conv3d", tiled(m_n, m_n, kBlockX, kBlockY), LaunchArgs().ptr(a).ptr(b).i32(n).i32(i));
        dev.download(m_b, b);
    }

    void compare(Checker& check) const override {
        const size_t n = m_n;
        for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < n; ++j)
                for (size_t k = 0; k < n; ++k) {
                    const bool interior = i > 0 && j > 0 && k > 0 && i + 1 < n && j + 1 < n && k + 1 < n;
                    const size_t at = (i * n + j) * n + k;
                    check.near("B", at, m_b[at], interior ? conv_point(m_a, n, i, j, k) : 0.0f);
                }
    }

private:
    uint32_t m_n;
    std::vector<float> m_a, m_b;
};

const bool registered = workload_registry().add_with<PolybenchConfig>(
    {"3dconv", "Polybench 3DCONV: 3x3x3 convolution of an N^3 float volume, one launch per plane",
     WorkloadClass::Regular, {"3dconv.ptx"}, {"volume dimension N", 32, kMaxN, 1,
       [](uint64_t n) { return 16 * n * n * n; }}},
    construct_polybench<Conv3d>);

}  // namespace

}  // namespace stacksim::workloads
