// SPDX-License-Identifier: Apache-2.0
// reduction workload: uint32 sum (mod 2^32); block 256, grid ceil(n/512), one atomicAdd per CTA.
#include <cstdint>
#include <limits>
#include <vector>

#include "workloads/library/common.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;  // must equal REDUCTION_BLOCK in reduction.cu

class Reduction final : public Workload {
public:
    Reduction(uint32_t n, uint64_t seed)
        : m_n(n), m_in(random_u32(n, sub_seed(seed, 0), 0, 65535)) {}

    void run(HostApi& host) override {
        const DevPtr in = host.upload(m_in);
        const DevPtr out = host.malloc(sizeof(uint32_t));
        host.memset(out, 0, sizeof(uint32_t));
        host.launch("reduction.ptx", "reduction", Dim3{ceil_div(m_n, 2 * kBlock), 1, 1},
                    Dim3{kBlock, 1, 1},
                    LaunchArgs().ptr(in).ptr(out).i32(static_cast<int32_t>(m_n)));
        std::vector<uint32_t> result(1, 0);
        host.download(result, out);
        m_sum = result[0];
        host.free(in);
        host.free(out);
        m_ran = true;
    }

    VerifyResult verify() override {
        if (!m_ran) return not_run_result();
        uint32_t want = 0;
        for (uint32_t v : m_in) want += v;  // wraps mod 2^32 exactly as the device does
        Checker check;
        check.exact("sum", 0, m_sum, want);
        return check.result();
    }

private:
    uint32_t m_n;
    std::vector<uint32_t> m_in;
    uint32_t m_sum = 0;
    bool m_ran = false;
};

}  // namespace

std::unique_ptr<Workload> make_reduction(uint32_t size, uint64_t seed) {
    require_size("reduction", size, std::numeric_limits<int32_t>::max() - 2 * kBlock);
    return std::make_unique<Reduction>(size, seed);
}

}  // namespace stacksim::workloads
