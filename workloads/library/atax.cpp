// SPDX-License-Identifier: Apache-2.0
// atax workload (Polybench-GPU ATAX): y = A^T (A x); two kernels, each block 256, grid ceil(n/256).
#include <cmath>
#include <cstdint>
#include <vector>

#include "workloads/library/library_workload.h"
#include "workloads/library/polybench_inputs.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;   // Polybench-GPU's DIM_THREAD_BLOCK_X
constexpr uint32_t kMaxN = 46336;  // n*n must fit the kernels' int indices

class Atax final : public LibraryWorkload {
public:
    Atax(uint32_t n, uint64_t seed, PolybenchInputs in)
        : LibraryWorkload("atax.ptx"),
          m_n(n),
          m_a(polybench_matrix(in, n, sub_seed(seed, 0))),
          m_x(polybench_1d(in, n, sub_seed(seed, 1), polybench_pi_times)) {}

    void execute(Device& dev) override {
        const DevPtr a = dev.upload(m_a), x = dev.upload(m_x);
        const DevPtr y = dev.alloc<float>(m_n), tmp = dev.alloc<float>(m_n);
        dev.zero(y);
        dev.zero(tmp);
        const auto n = static_cast<int32_t>(m_n);
        dev.launch("atax_kernel1", linear(m_n, kBlock), LaunchArgs().ptr(a).ptr(x).ptr(tmp).i32(n));
        dev.launch("atax_kernel2", linear(m_n, kBlock), LaunchArgs().ptr(a).ptr(y).ptr(tmp).i32(n));
        dev.download(m_tmp, tmp);
        dev.download(m_y, y);
    }

    void compare(Checker& check) const override {
        const size_t n = m_n;
        // Both kernels accumulate in index order with fma.rn.f32 from a zeroed buffer.
        std::vector<float> tmp(n, 0.0f), y(n, 0.0f);
        for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < n; ++j) tmp[i] = std::fma(m_a[i * n + j], m_x[j], tmp[i]);
        for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < n; ++j) y[j] = std::fma(m_a[i * n + j], tmp[i], y[j]);
        check.near_all("tmp", m_tmp, tmp);
        check.near_all("y", m_y, y);
    }

private:
    uint32_t m_n;
    std::vector<float> m_a, m_x, m_tmp, m_y;
};

const bool registered = workload_registry().add_with<PolybenchConfig>(
    {"atax", "Polybench ATAX: y = A^T (A x), row then column walks of an N x N matrix",
     WorkloadClass::Irregular, {"atax.ptx"}, {"matrix dimension N", 128, kMaxN, 1,
       [](uint64_t n) { return 8 * n * n + 32 * n; }}},
    construct_polybench<Atax>);

}  // namespace

}  // namespace stacksim::workloads
