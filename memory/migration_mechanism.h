// SPDX-License-Identifier: Apache-2.0
// How much of a page to migrate on a GPU access outside its valid bytes (plain C++, registry).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "memory/valid_ranges.h"
#include "sim/registry.h"

namespace stacksim::memory {

/// Parameters shared by the mechanisms (bytes).
struct MigrationParams {
    uint64_t page_bytes = 2097152;
    uint64_t unit_bytes = 1024;      ///< multi_range: migration unit (requests are rounded to it)
    uint64_t gap_threshold = 4096;   ///< multi_range: gaps smaller than this are migrated too
    uint32_t max_ranges = 4;         ///< multi_range: valid ranges per page at most
};

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

/// "whole_page", "single_range", "multi_range".
using MigrationRegistry = sim::Registry<MigrationMechanism, const MigrationParams&>;
const MigrationRegistry& migration_registry();

}  // namespace stacksim::memory
