// SPDX-License-Identifier: Apache-2.0
// reduction workload: uint32 sum (mod 2^32); block 256, grid ceil(n/512), one atomicAdd per CTA.
#include <cstdint>
#include <limits>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;  // must equal REDUCTION_BLOCK in reduction.cu

class Reduction final : public LibraryWorkload {
public:
    Reduction(uint32_t n, uint64_t seed)
        : LibraryWorkload("reduction.ptx"), m_n(n), m_in(random_u32(n, sub_seed(seed, 0), 0, 65535)) {}

    void execute(Device& dev) override {
        const DevPtr in = dev.upload(m_in), out = dev.zeros<uint32_t>(1);
        // Two elements per thread.
        dev.launch("reduction", linear(ceil_div(m_n, 2), kBlock),
                   LaunchArgs().ptr(in).ptr(out).i32(static_cast<int32_t>(m_n)));
        dev.download(m_sum, out);
    }

    void compare(Checker& check) const override {
        uint32_t want = 0;
        for (uint32_t v : m_in) want += v;  // wraps mod 2^32 exactly as the device does
        check.exact_all("sum", m_sum, {want});
    }

private:
    uint32_t m_n;
    std::vector<uint32_t> m_in, m_sum;
};

const bool registered = workload_registry().add(
    {"reduction", "uint32 sum: shared-memory tree per CTA plus one atomicAdd per CTA",
     WorkloadClass::Other, {"reduction.ptx"}, {"elements", 16384, std::numeric_limits<int32_t>::max() - 2 * kBlock, 1,
       [](uint64_t n) { return 8 * n; }}},
    construct<Reduction>);

}  // namespace

}  // namespace stacksim::workloads
