// SPDX-License-Identifier: Apache-2.0
// gemm workload (Polybench-GPU GEMM): C = alpha*A*B + beta*C, n x n; block (32,8), one thread per C.
#include <cmath>
#include <cstdint>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlockX = 32, kBlockY = 8;  // Polybench-GPU's DIM_THREAD_BLOCK_X/Y
constexpr uint32_t kMaxN = 46336;              // n*n must fit the kernel's int indices
constexpr float kAlpha = 1.5f, kBeta = 1.2f;

class Gemm final : public LibraryWorkload {
public:
    Gemm(uint32_t n, uint64_t seed)
        : LibraryWorkload("gemm.ptx"),
          m_n(n),
          m_a(random_f32(size_t{n} * n, sub_seed(seed, 0), 0.0f, 1.0f)),
          m_b(random_f32(size_t{n} * n, sub_seed(seed, 1), 0.0f, 1.0f)),
          m_c_in(random_f32(size_t{n} * n, sub_seed(seed, 2), 0.0f, 1.0f)) {}

    void execute(Device& dev) override {
        const DevPtr a = dev.upload(m_a), b = dev.upload(m_b), c = dev.upload(m_c_in);
        dev.launch("gemm_kernel", tiled(m_n, m_n, kBlockX, kBlockY),
                   LaunchArgs().ptr(a).ptr(b).ptr(c).i32(static_cast<int32_t>(m_n)).f32(kAlpha).f32(kBeta));
        dev.download(m_c, c);
    }

    void compare(Checker& check) const override {
        const size_t n = m_n;
        std::vector<float> row(n);
        for (size_t i = 0; i < n; ++i) {
            // c *= beta, then c = fma(alpha*a[i][k], b[k][j], c) for k in order (as nvcc emits it).
            for (size_t j = 0; j < n; ++j) row[j] = m_c_in[i * n + j] * kBeta;
            for (size_t k = 0; k < n; ++k) {
                const float aik = kAlpha * m_a[i * n + k];
                for (size_t j = 0; j < n; ++j) row[j] = std::fma(aik, m_b[k * n + j], row[j]);
            }
            for (size_t j = 0; j < n; ++j) check.near("C", i * n + j, m_c[i * n + j], row[j]);
        }
    }

private:
    uint32_t m_n;
    std::vector<float> m_a, m_b, m_c_in, m_c;
};

const bool registered = workload_registry().add(
    {"gemm", "Polybench GEMM: C = alpha A B + beta C, one thread per element (no tiling)",
     WorkloadClass::Regular, {"gemm.ptx"}, {"matrix dimension N", 64, kMaxN, 1,
       [](uint64_t n) { return 32 * n * n; }}},
    construct<Gemm>);

}  // namespace

}  // namespace stacksim::workloads
