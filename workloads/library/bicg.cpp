// SPDX-License-Identifier: Apache-2.0
// bicg workload (Polybench-GPU BICG): s = A^T r, q = A p; two kernels, block 256, grid ceil(n/256).
#include <cmath>
#include <cstdint>
#include <vector>

#include "workloads/library/common.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;   // Polybench-GPU's DIM_THREAD_BLOCK_X
constexpr uint32_t kMaxN = 46336;  // n*n must fit the kernels' int indices

class Bicg final : public Workload {
public:
    Bicg(uint32_t n, uint64_t seed)
        : m_n(n),
          m_a(random_f32(size_t{n} * n, sub_seed(seed, 0), 0.0f, 1.0f)),
          m_r(random_f32(n, sub_seed(seed, 1), 0.0f, 1.0f)),
          m_p(random_f32(n, sub_seed(seed, 2), 0.0f, 1.0f)) {}

    void run(HostApi& host) override {
        const uint64_t vec_bytes = uint64_t{m_n} * sizeof(float);
        const DevPtr a = host.upload(m_a), r = host.upload(m_r), p = host.upload(m_p);
        const DevPtr s = host.malloc(vec_bytes), q = host.malloc(vec_bytes);
        const Dim3 grid{ceil_div(m_n, kBlock), 1, 1}, block{kBlock, 1, 1};
        const auto n = static_cast<int32_t>(m_n);
        host.launch("bicg.ptx", "bicg_kernel1", grid, block, LaunchArgs().ptr(a).ptr(r).ptr(s).i32(n));
        host.launch("bicg.ptx", "bicg_kernel2", grid, block, LaunchArgs().ptr(a).ptr(p).ptr(q).i32(n));
        host.download(m_s, s, m_n);
        host.download(m_q, q, m_n);
        for (DevPtr d : {a, r, p, s, q}) host.free(d);
        m_ran = true;
    }

    VerifyResult verify() override {
        if (!m_ran) return not_run_result();
        const size_t n = m_n;
        // Both kernels accumulate in index order with fma.rn.f32 from 0.
        std::vector<float> s(n, 0.0f), q(n, 0.0f);
        for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < n; ++j) s[j] = std::fma(m_a[i * n + j], m_r[i], s[j]);
        for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < n; ++j) q[i] = std::fma(m_a[i * n + j], m_p[j], q[i]);
        Checker check;
        for (size_t j = 0; j < n; ++j) check.near("s", j, m_s[j], s[j]);
        for (size_t i = 0; i < n; ++i) check.near("q", i, m_q[i], q[i]);
        return check.result();
    }

private:
    uint32_t m_n;
    std::vector<float> m_a, m_r, m_p, m_s, m_q;
    bool m_ran = false;
};

}  // namespace

std::unique_ptr<Workload> make_bicg(uint32_t size, uint64_t seed) {
    require_size("bicg", size, kMaxN);
    return std::make_unique<Bicg>(size, seed);
}

}  // namespace stacksim::workloads
