// SPDX-License-Identifier: Apache-2.0
// How much of a page to migrate on a GPU access outside its valid bytes (interface, registry).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "memory/valid_ranges.h"
#include "sim/registry.h"

namespace stacksim::memory {

/// Decides the bytes to move host-to-device so that [lo, hi) of a page becomes valid.
class MigrationMechanism {
public:
    virtual ~MigrationMechanism() = default;
    /// `present`: bytes of the page valid on the GPU or already on their way. Returns the
    /// ranges to migrate, disjoint from `present`, in address order; after adding them,
    /// `present` covers [lo, hi) and keeps the mechanism's invariant (whole page; one range;
    /// at most max_ranges ranges).
    virtual std::vector<ByteRange> plan(const ValidRanges& present, uint64_t lo, uint64_t hi) const = 0;
    /// True if a page is only ever migrated whole (no partial-valid state).
    virtual bool whole_page() const { return false; }
};

/// Migration mechanisms by name (uvm.mechanism), each in memory/migration_*.cpp; the
/// argument is the page size in bytes.
using MigrationRegistry = sim::Registry<MigrationMechanism, uint64_t>;
MigrationRegistry& migration_mechanisms();

}  // namespace stacksim::memory
