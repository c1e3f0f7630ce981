// SPDX-License-Identifier: Apache-2.0
// gesummv workload (Polybench-GPU GESUMMV): y = alpha*A*x + beta*B*x; block 256, grid ceil(n/256).
#include <cmath>
#include <cstdint>
#include <vector>

#include "workloads/library/common.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;   // Polybench-GPU's DIM_THREAD_BLOCK_X
constexpr uint32_t kMaxN = 46336;  // n*n must fit the kernel's int indices
constexpr float kAlpha = 1.5f, kBeta = 1.2f;

class Gesummv final : public Workload {
public:
    Gesummv(uint32_t n, uint64_t seed)
        : m_n(n),
          m_a(random_f32(size_t{n} * n, sub_seed(seed, 0), 0.0f, 1.0f)),
          m_b(random_f32(size_t{n} * n, sub_seed(seed, 1), 0.0f, 1.0f)),
          m_x(random_f32(n, sub_seed(seed, 2), 0.0f, 1.0f)) {}

    void run(HostApi& host) override {
        const uint64_t vec_bytes = uint64_t{m_n} * sizeof(float);
        const DevPtr a = host.upload(m_a), b = host.upload(m_b), x = host.upload(m_x);
        const DevPtr y = host.malloc(vec_bytes), tmp = host.malloc(vec_bytes);
        host.memset(y, 0, vec_bytes);
        host.memset(tmp, 0, vec_bytes);
        host.launch("gesummv.ptx", "gesummv_kernel", Dim3{ceil_div(m_n, kBlock), 1, 1}, Dim3{kBlock, 1, 1},
                    LaunchArgs().ptr(a).ptr(b).ptr(x).ptr(y).ptr(tmp).i32(static_cast<int32_t>(m_n))
                        .f32(kAlpha).f32(kBeta));
        host.download(m_y, y, m_n);
        host.download(m_tmp, tmp, m_n);
        for (DevPtr d : {a, b, x, y, tmp}) host.free(d);
        m_ran = true;
    }

    VerifyResult verify() override {
        if (!m_ran) return not_run_result();
        const size_t n = m_n;
        Checker check;
        for (size_t i = 0; i < n; ++i) {
            float tmp = 0.0f, y = 0.0f;  // fma.rn.f32 in index order from the zeroed buffers
            for (size_t j = 0; j < n; ++j) {
                tmp = std::fma(m_a[i * n + j], m_x[j], tmp);
                y = std::fma(m_b[i * n + j], m_x[j], y);
            }
            check.near("tmp", i, m_tmp[i], tmp);
            check.near("y", i, m_y[i], std::fma(kAlpha, tmp, kBeta * y));  // as nvcc contracts it
        }
        return check.result();
    }

private:
    uint32_t m_n;
    std::vector<float> m_a, m_b, m_x, m_y, m_tmp;
    bool m_ran = false;
};

}  // namespace

std::unique_ptr<Workload> make_gesummv(uint32_t size, uint64_t seed) {
    require_size("gesummv", size, kMaxN);
    return std::make_unique<Gesummv>(size, seed);
}

}  // namespace stacksim::workloads
