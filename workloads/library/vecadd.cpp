// SPDX-License-Identifier: Apache-2.0
// vecadd workload: c = a + b over n floats; block 256, grid ceil(n/256).
#include <cstdint>
#include <limits>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;

class VecAdd final : public LibraryWorkload {
public:
    VecAdd(uint32_t n, uint64_t seed)
        : LibraryWorkload("vecadd.ptx"),
          m_n(n),
          m_a(random_f32(n, sub_seed(seed, 0), -1.0f, 1.0f)),
          m_b(random_f32(n, sub_seed(seed, 1), -1.0f, 1.0f)) {}

    void execute(Device& dev) override {
        const DevPtr a = dev.upload(m_a), b = dev.upload(m_b), c = dev.alloc<float>(m_n);
        dev.launch("vecadd", linear(m_n, kBlock), LaunchArgs().ptr(a).ptr(b).ptr(c).i32(static_cast<int32_t>(m_n)));
        dev.download(m_c, c);
    }

    void compare(Checker& check) const override {
        for (uint32_t i = 0; i < m_n; ++i) check.near("c", i, m_c[i], m_a[i] + m_b[i]);
    }

private:
    uint32_t m_n;
    std::vector<float> m_a, m_b, m_c;
};

const bool registered = workload_registry().add(
    {"vecadd", "c = a + b (float)",
     WorkloadClass::Regular, {"vecadd.ptx"}, {"elements", 4096, std::numeric_limits<int32_t>::max() - kBlock, 1,
       [](uint64_t n) { return 24 * n; }}},
    construct<VecAdd>);

}  // namespace

}  // namespace stacksim::workloads
