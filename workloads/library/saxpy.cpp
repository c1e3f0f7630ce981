// SPDX-License-Identifier: Apache-2.0
// saxpy workload: y = a*x + y over n floats (fused as nvcc does); block 256, grid ceil(n/256).
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;
constexpr float kA = 1.75f;

class Saxpy final : public LibraryWorkload {
public:
    Saxpy(uint32_t n, uint64_t seed)
        : LibraryWorkload("saxpy.ptx"),
          m_n(n),
          m_x(random_f32(n, sub_seed(seed, 0), -1.0f, 1.0f)),
          m_y0(random_f32(n, sub_seed(seed, 1), -1.0f, 1.0f)) {}

    void execute(Device& dev) override {
        const DevPtr x = dev.upload(m_x), y = dev.upload(m_y0);
        dev.launch("saxpy", linear(m_n, kBlock), LaunchArgs().f32(kA).ptr(x).ptr(y).i32(static_cast<int32_t>(m_n)));
        dev.download(m_y, y);
    }

    void compare(Checker& check) const override {
        // The PTX computes fma.rn.f32(x, a, y).
        for (uint32_t i = 0; i < m_n; ++i) check.near("y", i, m_y[i], std::fma(m_x[i], kA, m_y0[i]));
    }

private:
    uint32_t m_n;
    std::vector<float> m_x, m_y0, m_y;
};

const bool registered = workload_registry().add(
    {"saxpy", "y = a*x + y (float)",
     WorkloadClass::Regular, {"saxpy.ptx"}, {"elements", 4096, std::numeric_limits<int32_t>::max() - kBlock, 1,
       [](uint64_t n) { return 24 * n; }}},
    construct<Saxpy>);

}  // namespace

}  // namespace stacksim::workloads
