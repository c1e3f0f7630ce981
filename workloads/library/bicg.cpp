// SPDX-License-Identifier: Apache-2.0
// bicg workload (Polybench-GPU BICG): s = A^T r, q = A p; two kernels, block 256, grid ceil(n/256).
#include <cmath>
#include <cstdint>
#include <vector>

#include "workloads/library/library_workload.h"
#include "workloads/library/polybench_inputs.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;   // Polybench-GPU's DIM_THREAD_BLOCK_X
constexpr uint32_t kMaxN = 46336;  // n*n must fit the kernels' int indices

class Bicg final : public LibraryWorkload {
public:
    Bicg(uint32_t n, uint64_t seed, PolybenchInputs in)
        : LibraryWorkload("bicg.ptx"),
          m_n(n),
          m_a(polybench_matrix(in, n, sub_seed(seed, 0))),
          m_r(polybench_1d(in, n, sub_seed(seed, 1), polybench_pi_times)),
          m_p(polybench_1d(in, n, sub_seed(seed, 2), polybench_pi_times)) {}

    void execute(Device& dev) override {
        const DevPtr a = dev.upload(m_a), r = dev.upload(m_r), p = dev.upload(m_p);
        const DevPtr s = dev.alloc<float>(m_n), q = dev.alloc<float>(m_n);
        const auto n = static_cast<int32_t>(m_n);
        dev.launch("bicg_kernel1", linear(m_n, kBlock), LaunchArgs().ptr(a).ptr(r).ptr(s).i32(n));
        dev.launch("bicg_kernel2", linear(m_n, kBlock), LaunchArgs().ptr(a).ptr(p).ptr(q).i32(n));
        dev.download(m_s, s);
        dev.download(m_q, q);
    }

    void compare(Checker& check) const override {
        const size_t n = m_n;
        // Both kernels accumulate in index order with fma.rn.f32 from 0.
        std::vector<float> s(n, 0.0f), q(n, 0.0f);
        for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < n; ++j) s[j] = std::fma(m_a[i * n + j], m_r[i], s[j]);
        for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < n; ++j) q[i] = std::fma(m_a[i * n + j], m_p[j], q[i]);
        check.near_all("s", m_s, s);
        check.near_all("q", m_q, q);
    }

private:
    uint32_t m_n;
    std::vector<float> m_a, m_r, m_p, m_s, m_q;
};

const bool registered = workload_registry().add_with<PolybenchConfig>(
    {"bicg", "Polybench BICG: s = A^T r and q = A p, column then row walks of an N x N matrix",
     WorkloadClass::Irregular, {"bicg.ptx"}, {"matrix dimension N", 128, kMaxN, 1,
       [](uint64_t n) { return 8 * n * n + 40 * n; }}},
    construct_polybench<Bicg>);

}  // namespace

}  // namespace stacksim::workloads
