// SPDX-License-Identifier: Apache-2.0
// FIFO replacement: the line filled longest ago leaves, however often it was used.
#include <vector>

#include "common/replacement_policy.h"

namespace stacksim::common {

namespace {

class Fifo final : public ReplacementPolicy {
public:
    void reset(uint32_t sets, uint32_t ways) override {
        m_ways = ways;
        m_filled.assign(size_t{sets} * ways, 0);
    }
    void touch(uint32_t, uint32_t) override {}
    void insert(uint32_t set, uint32_t way) override { m_filled[size_t{set} * m_ways + way] = ++m_clock; }
    uint32_t victim(uint32_t set) override {
        const uint64_t* f = &m_filled[size_t{set} * m_ways];
        uint32_t v = 0;
        for (uint32_t w = 1; w < m_ways; ++w)
            if (f[w] < f[v]) v = w;
        return v;
    }

private:
    uint32_t m_ways = 0;
    uint64_t m_clock = 0;
    std::vector<uint64_t> m_filled;  ///< fill order, per (set, way)
};

const bool registered =
    replacement_policies().add("fifo", "oldest filled line", [] { return std::make_unique<Fifo>(); });

}  // namespace

}  // namespace stacksim::common
