// SPDX-License-Identifier: Apache-2.0
// atax workload (Polybench-GPU ATAX): y = A^T (A x); two kernels, each block 256, grid ceil(n/256).
#include <cmath>
#include <cstdint>
#include <vector>

#include "workloads/library/common.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;   // Polybench-GPU's DIM_THREAD_BLOCK_X
constexpr uint32_t kMaxN = 46336;  // n*n must fit the kernels' int indices

class Atax final : public Workload {
public:
    Atax(uint32_t n, uint64_t seed)
        : m_n(n),
          m_a(random_f32(size_t{n} * n, sub_seed(seed, 0), 0.0f, 1.0f)),
          m_x(random_f32(n, sub_seed(seed, 1), 0.0f, 1.0f)) {}

    void run(HostApi& host) override {
        const uint64_t vec_bytes = uint64_t{m_n} * sizeof(float);
        const DevPtr a = host.upload(m_a), x = host.upload(m_x);
        const DevPtr y = host.malloc(vec_bytes), tmp = host.malloc(vec_bytes);
        host.memset(y, 0, vec_bytes);
        host.memset(tmp, 0, vec_bytes);
        const Dim3 grid{ceil_div(m_n, kBlock), 1, 1}, block{kBlock, 1, 1};
        const auto n = static_cast<int32_t>(m_n);
        host.launch("atax.ptx", "atax_kernel1", grid, block,
                    LaunchArgs().ptr(a).ptr(x).ptr(tmp).i32(n));
        host.launch("atax.ptx", "atax_kernel2", grid, block,
                    LaunchArgs().ptr(a).ptr(y).ptr(tmp).i32(n));
        host.download(m_tmp, tmp, m_n);
        host.download(m_y, y, m_n);
        for (DevPtr p : {a, x, y, tmp}) host.free(p);
        m_ran = true;
    }

    VerifyResult verify() override {
        if (!m_ran) return not_run_result();
        const size_t n = m_n;
        // Both kernels accumulate in index order with fma.rn.f32 from a zeroed buffer.
        std::vector<float> tmp(n, 0.0f), y(n, 0.0f);
        for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < n; ++j) tmp[i] = std::fma(m_a[i * n + j], m_x[j], tmp[i]);
        for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < n; ++j) y[j] = std::fma(m_a[i * n + j], tmp[i], y[j]);
        Checker check;
        for (size_t i = 0; i < n; ++i) check.near("tmp", i, m_tmp[i], tmp[i]);
        for (size_t j = 0; j < n; ++j) check.near("y", j, m_y[j], y[j]);
        return check.result();
    }

private:
    uint32_t m_n;
    std::vector<float> m_a, m_x, m_tmp, m_y;
    bool m_ran = false;
};

}  // namespace

std::unique_ptr<Workload> make_atax(uint32_t size, uint64_t seed) {
    require_size("atax", size, kMaxN);
    return std::make_unique<Atax>(size, seed);
}

}  // namespace stacksim::workloads
