// SPDX-License-Identifier: Apache-2.0
// Tree pseudo-LRU replacement: one bit per tree node points away from the last use.
#include <vector>

#include "common/replacement_policy.h"

namespace stacksim::common {

namespace {

/// A binary tree over the ways (rounded up to a power of two) with one bit per inner node:
/// 0 = the victim is on the left. A use flips the bits on its path to point away from it;
/// the victim follows the bits from the root. Ways past the real count are never chosen.
class TreePlru final : public ReplacementPolicy {
public:
    void reset(uint32_t sets, uint32_t ways) override {
        m_ways = ways;
        m_leaves = 1;
        while (m_leaves < ways) m_leaves *= 2;
        m_bits.assign(size_t{sets} * m_leaves, 0);
    }
    void touch(uint32_t set, uint32_t way) override {
        uint8_t* b = &m_bits[size_t{set} * m_leaves];
        uint32_t node = 1, lo = 0, span = m_leaves;
        while (span > 1) {
            span /= 2;
            const bool right = way >= lo + span;
            b[node] = right ? 0 : 1;  // point at the other half
            node = 2 * node + (right ? 1 : 0);
            if (right) lo += span;
        }
    }
    void insert(uint32_t set, uint32_t way) override { touch(set, way); }
    uint32_t victim(uint32_t set) override {
        const uint8_t* b = &m_bits[size_t{set} * m_leaves];
        uint32_t node = 1, lo = 0, span = m_leaves;
        while (span > 1) {
            span /= 2;
            bool right = b[node] != 0;
            if (right && lo + span >= m_ways) right = false;  // no real way on that side
            node = 2 * node + (right ? 1 : 0);
            if (right) lo += span;
        }
        return lo;
    }

private:
    uint32_t m_ways = 0, m_leaves = 1;
    std::vector<uint8_t> m_bits;  ///< per set: nodes 1 .. leaves-1 of the tree
};

const bool registered = replacement_policies().add(
    "plru", "tree pseudo-LRU: one bit per tree node points away from the last use",
    [] { return std::make_unique<TreePlru>(); });

}  // namespace

}  // namespace stacksim::common
