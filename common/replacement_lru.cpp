// SPDX-License-Identifier: Apache-2.0
// LRU replacement: the line used longest ago leaves.
#include <vector>

#include "common/replacement_policy.h"

namespace stacksim::common {

namespace {

class Lru final : public ReplacementPolicy {
public:
    void reset(uint32_t sets, uint32_t ways) override {
        m_ways = ways;
        m_stamp.assign(size_t{sets} * ways, 0);
    }
    void touch(uint32_t set, uint32_t way) override { m_stamp[size_t{set} * m_ways + way] = ++m_clock; }
    void insert(uint32_t set, uint32_t way) override { touch(set, way); }
    uint32_t victim(uint32_t set) override {
        const uint64_t* s = &m_stamp[size_t{set} * m_ways];
        uint32_t v = 0;
        for (uint32_t w = 1; w < m_ways; ++w)
            if (s[w] < s[v]) v = w;
        return v;
    }

private:
    uint32_t m_ways = 0;
    uint64_t m_clock = 0;
    std::vector<uint64_t> m_stamp;  ///< last use, per (set, way)
};

const bool registered =
    replacement_policies().add("lru", "least recently used line", [] { return std::make_unique<Lru>(); });

}  // namespace

}  // namespace stacksim::common
