// SPDX-License-Identifier: Apache-2.0
// 2dconv workload (Polybench-GPU 2DCONV): 3x3 stencil on n x n floats; block (32,8).
#include <cmath>
#include <cstdint>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlockX = 32, kBlockY = 8;  // Polybench-GPU's DIM_THREAD_BLOCK_X/Y
constexpr uint32_t kMaxN = 46336;              // n*n must fit the kernel's int indices

/// B[i][j] for an interior point, in the order nvcc emits it: c21*a01 first (mul.f32), then
/// fma.rn.f32 of the remaining eight terms in source order.
float conv_point(const std::vector<float>& a, size_t n, size_t i, size_t j) {
    auto at = [&](size_t r, size_t c) { return a[r * n + c]; };
    float acc = at(i - 1, j) * 0.5f;
    acc = std::fma(at(i - 1, j - 1), 0.2f, acc);
    acc = std::fma(at(i - 1, j + 1), -0.8f, acc);
    acc = std::fma(at(i, j - 1), -0.3f, acc);
    acc = std::fma(at(i, j), 0.6f, acc);
    acc = std::fma(at(i, j + 1), -0.9f, acc);
    acc = std::fma(at(i + 1, j - 1), 0.4f, acc);
    acc = std::fma(at(i + 1, j), 0.7f, acc);
    acc = std::fma(at(i + 1, j + 1), 0.10f, acc);
    return acc;
}

class Conv2d final : public LibraryWorkload {
public:
    Conv2d(uint32_t n, uint64_t seed)
        : LibraryWorkload("2dconv.ptx"), m_n(n), m_a(random_f32(size_t{n} * n, sub_seed(seed, 0), 0.0f, 1.0f)) {}

    void execute(Device& dev) override {
        const DevPtr a = dev.upload(m_a);
        const DevPtr b = dev.zeros<float>(m_a.size());  // the kernel leaves B's border untouched
        dev.launch("conv2d", tiled(m_n, m_n, kBlockX, kBlockY),
                   LaunchArgs().ptr(a).ptr(b).i32(static_cast<int32_t>(m_n)));
        dev.download(m_b, b);
    }

    void compare(Checker& check) const override {
        const size_t n = m_n;
        for (size_t i = 0; i < n; ++i) {
            for (size_t j = 0; j < n; ++j) {
                const bool interior = i > 0 && j > 0 && i + 1 < n && j + 1 < n;
                check.near("B", i * n + j, m_b[i * n + j],
                           interior ? conv_point(m_a, n, i, j) : 0.0f);
            }
        }
    }

private:
    uint32_t m_n;
    std::vector<float> m_a, m_b;
};

const bool registered = workload_registry().add(
    {"2dconv", "Polybench 2DCONV: 3x3 convolution of an N x N float image",
     WorkloadClass::Regular, {"2dconv.ptx"}, {"image dimension N", 128, kMaxN, 1,
       [](uint64_t n) { return 16 * n * n; }}},
    construct<Conv2d>);

}  // namespace

}  // namespace stacksim::workloads
