// SPDX-License-Identifier: Apache-2.0
// Which group of resident pages the GMMU evicts when GPU memory is full (interface, registry).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/registry.h"

namespace stacksim::memory {

/// What the GMMU knows about one eviction group (an aligned run of pages); times are the
/// GMMU's event sequence numbers (monotonic, deterministic).
struct EvictionCandidate {
    uint64_t group = 0;            ///< group number (address / eviction granularity)
    uint64_t resident_since = 0;   ///< when its first resident page arrived
    uint64_t last_migration = 0;   ///< when a page of it last migrated in (fault or prefetch)
    uint64_t last_access = 0;      ///< when the GPU last accessed it (translated access)
};

/// Picks a victim among candidates (never empty, in ascending group order).
class EvictionPolicy {
public:
    virtual ~EvictionPolicy() = default;
    /// Index into `c` of the group to evict.
    virtual size_t pick(const std::vector<EvictionCandidate>& c) = 0;
};

/// Eviction policies by name (uvm.eviction), each in memory/eviction_*.cpp; the argument is
/// the run's seed.
using EvictionRegistry = sim::Registry<EvictionPolicy, uint64_t>;
EvictionRegistry& eviction_policies();

/// Index of the candidate with the smallest `key` (the first in group order on ties).
template <typename Key> size_t smallest_candidate(const std::vector<EvictionCandidate>& c, Key key) {
    size_t best = 0;
    for (size_t i = 1; i < c.size(); ++i)
        if (key(c[i]) < key(c[best])) best = i;
    return best;
}

}  // namespace stacksim::memory
