// SPDX-License-Identifier: Apache-2.0
// matmul workload: C = A x B (n x n floats), 16x16 tiles; block (16,16), grid ceil(n/16)^2.
#include <cmath>
#include <cstdint>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kTile = 16;     // must equal TILE in matmul.cu
constexpr uint32_t kMaxN = 46336;  // n*n must fit the kernel's int indices

class Matmul final : public LibraryWorkload {
public:
    Matmul(uint32_t n, uint64_t seed)
        : LibraryWorkload("matmul.ptx"),
          m_n(n),
          m_a(random_f32(size_t{n} * n, sub_seed(seed, 0), -1.0f, 1.0f)),
          m_b(random_f32(size_t{n} * n, sub_seed(seed, 1), -1.0f, 1.0f)) {}

    void execute(Device& dev) override {
        const DevPtr a = dev.upload(m_a), b = dev.upload(m_b), c = dev.alloc<float>(m_a.size());
        dev.launch("matmul", tiled(m_n, m_n, kTile, kTile),
                   LaunchArgs().ptr(a).ptr(b).ptr(c).i32(static_cast<int32_t>(m_n)));
        dev.download(m_c, c);
    }

    void compare(Checker& check) const override {
        const size_t n = m_n;
        std::vector<float> row(n);
        for (size_t i = 0; i < n; ++i) {
            // The kernel accumulates k = 0..n-1 in order with fma.rn.f32 (padding adds +0*0).
            for (size_t j = 0; j < n; ++j) row[j] = 0.0f;
            for (size_t k = 0; k < n; ++k) {
                const float a = m_a[i * n + k];
                const float* b = &m_b[k * n];
                for (size_t j = 0; j < n; ++j) row[j] = std::fma(a, b[j], row[j]);
            }
            for (size_t j = 0; j < n; ++j) check.near("C", i * n + j, m_c[i * n + j], row[j]);
        }
    }

private:
    uint32_t m_n;
    std::vector<float> m_a, m_b, m_c;
};

const bool registered = workload_registry().add(
    {"matmul", "tiled C = A x B with 16x16 shared-memory tiles (float)",
     WorkloadClass::Regular, {"matmul.ptx"}, {"matrix dimension N", 64, kMaxN, 1,
       [](uint64_t n) { return 24 * n * n; }}},
    construct<Matmul>);

}  // namespace

}  // namespace stacksim::workloads
