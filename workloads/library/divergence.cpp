// SPDX-License-Identifier: Apache-2.0
// divergence workload: nested branches + data-dependent loop; block 256, grid ceil(n/256).
#include <cstdint>
#include <limits>
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

constexpr uint32_t kBlock = 256;

/// The CPU model of divergence.cu for thread x with input v (uint32 arithmetic wraps).
uint32_t divergence_ref(uint32_t x, uint32_t v) {
    uint32_t r;
    if (x % 2) {
        if (x % 4 == 1) {
            r = v;
            const uint32_t trips = v % 11;
            for (uint32_t k = 0; k < trips; ++k) {
                if (r & 4)
                    r = r * 3u + k;
                else
                    r = (r >> 1) ^ (v + k);
            }
        } else {
            r = v * 5u - x;
            if (r & 1) r += 7u;
        }
    } else {
        if (v % 3 == 0) {
            r = v / 3u;
            if (r & 2) r ^= 0x5au;
        } else {
            r = v + x * 2u;
        }
    }
    return r;
}

class Divergence final : public LibraryWorkload {
public:
    Divergence(uint32_t n, uint64_t seed)
        : LibraryWorkload("divergence.ptx"), m_n(n), m_in(random_i32(n, sub_seed(seed, 0), 0, 1000000)) {}

    void execute(Device& dev) override {
        const DevPtr in = dev.upload(m_in), out = dev.alloc<int32_t>(m_n);
        dev.launch("divergence", linear(m_n, kBlock), LaunchArgs().ptr(in).ptr(out).i32(static_cast<int32_t>(m_n)));
        dev.download(m_out, out);
    }

    void compare(Checker& check) const override {
        for (uint32_t x = 0; x < m_n; ++x) {
            const auto want = static_cast<int32_t>(divergence_ref(x, static_cast<uint32_t>(m_in[x])));
            check.exact("out", x, m_out[x], want);
        }
    }

private:
    uint32_t m_n;
    std::vector<int32_t> m_in, m_out;
};

const bool registered = workload_registry().add(
    {"divergence", "nested divergent branches and a data-dependent loop (int)",
     WorkloadClass::Other, {"divergence.ptx"}, {"elements", 4096, std::numeric_limits<int32_t>::max() - kBlock, 1,
       [](uint64_t n) { return 16 * n; }}},
    construct<Divergence>);

}  // namespace

}  // namespace stacksim::workloads
