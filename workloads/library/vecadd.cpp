// SPDX-License-Identifier: Apache-2.0
// vecadd workload: c = a + b over n floats; block 256, grid ceil(n/256).
#include <cstdint>
#include <limits>
#include <vector>

#include "workloads/library/common.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;

class VecAdd final : public Workload {
public:
    VecAdd(uint32_t n, uint64_t seed)
        : m_n(n),
          m_a(random_f32(n, sub_seed(seed, 0), -1.0f, 1.0f)),
          m_b(random_f32(n, sub_seed(seed, 1), -1.0f, 1.0f)) {}

    void run(HostApi& host) override {
        const DevPtr a = host.upload(m_a), b = host.upload(m_b);
        const DevPtr c = host.malloc(uint64_t{m_n} * sizeof(float));
        host.launch("vecadd.ptx", "vecadd", Dim3{ceil_div(m_n, kBlock), 1, 1}, Dim3{kBlock, 1, 1},
                    LaunchArgs().ptr(a).ptr(b).ptr(c).i32(static_cast<int32_t>(m_n)));
        host.download(m_c, c, m_n);
        host.free(a);
        host.free(b);
        host.free(c);
        m_ran = true;
    }

    VerifyResult verify() override {
        if (!m_ran) return not_run_result();
        Checker check;
        for (uint32_t i = 0; i < m_n; ++i) check.near("c", i, m_c[i], m_a[i] + m_b[i]);
        return check.result();
    }

private:
    uint32_t m_n;
    std::vector<float> m_a, m_b, m_c;
    bool m_ran = false;
};

}  // namespace

std::unique_ptr<Workload> make_vecadd(uint32_t size, uint64_t seed) {
    require_size("vecadd", size, std::numeric_limits<int32_t>::max() - kBlock);
    return std::make_unique<VecAdd>(size, seed);
}

}  // namespace stacksim::workloads
