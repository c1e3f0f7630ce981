// SPDX-License-Identifier: Apache-2.0
// Cache replacement policies: per-set state updated on hits and fills, asked for a victim.
#pragma once
#include <cstdint>

#include "sim/registry.h"

namespace stacksim::common {

/// Chooses the way a full set gives up. The tag array calls insert() when a way is filled,
/// touch() when a resident line is used again, invalidate() when a way empties, and victim()
/// only when every way of the set is valid (an invalid way is always filled first). State is
/// per (set, way), so recency stacks, PLRU trees and RRIP counters all fit.
class ReplacementPolicy {
public:
    virtual ~ReplacementPolicy() = default;
    /// Sizes the state for `sets` x `ways`; called once before any other call.
    virtual void reset(uint32_t sets, uint32_t ways) = 0;
    virtual void touch(uint32_t set, uint32_t way) = 0;
    virtual void insert(uint32_t set, uint32_t way) = 0;
    virtual void invalidate(uint32_t set, uint32_t way) { (void)set, (void)way; }
    /// The way to replace in the full set `set`.
    virtual uint32_t victim(uint32_t set) = 0;
};

using ReplacementRegistry = sim::Registry<ReplacementPolicy>;
/// Replacement policies by name (gpu.l1.replacement, memory.l2.replacement); each
/// registers itself in its own common/replacement_*.cpp.
ReplacementRegistry& replacement_policies();

}  // namespace stacksim::common
