// SPDX-License-Identifier: Apache-2.0
// Set-associative, sectored tag array with a replacement policy from the registry (plain C++).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "common/replacement_policy.h"
#include "sim/policy_catalog.h"

namespace stacksim::common {

/// Geometry of a tag array. Sizes in bytes.
struct TagArrayGeometry {
    uint64_t size_bytes = 16384;
    uint32_t ways = 4;
    uint32_t line_bytes = 128;
    uint32_t sector_bytes = 32;
    sim::PolicySpec replacement{"lru"};  ///< a replacement_policies() name and its parameters
    /// Hash the set index (line number XOR-folded with its higher bits) instead of taking the
    /// low bits; an L2 slice needs it, or the partition-interleave bits leave sets unused.
    bool hashed_sets = false;
    uint32_t sets() const { return static_cast<uint32_t>(size_bytes / (uint64_t{ways} * line_bytes)); }
    uint32_t sectors() const { return line_bytes / sector_bytes; }
};

/// A line chosen for replacement.
struct Eviction {
    uint64_t line_addr;
    uint32_t valid_sectors;
    uint32_t dirty_sectors;
    uint32_t owner;  ///< who filled it (e.g. warp slot), for victim tracking
};

/// Tags, per-sector valid and dirty bits, and the replacement policy's state. Addresses are
/// byte addresses; sector masks have bit i for sector i of the line. A fill uses the first
/// invalid way of its set, else the policy's victim.
class TagArray {
public:
    explicit TagArray(const TagArrayGeometry& g);

    uint64_t line_of(uint64_t addr) const { return addr & ~uint64_t{m_geo.line_bytes - 1}; }
    /// Valid sectors of the line holding `addr` (0 if absent). A use for the policy when `touch`.
    uint32_t lookup(uint64_t addr, bool touch = true);
    /// Makes the line resident (allocating a way, evicting the policy's victim if the set is
    /// full) and marks `sectors` valid; returns the eviction, if a valid line was replaced.
    std::optional<Eviction> fill(uint64_t addr, uint32_t sectors, uint32_t owner = 0);
    /// Marks `sectors` of a resident line dirty (no-op if absent).
    void mark_dirty(uint64_t addr, uint32_t sectors);
    /// Drops `sectors` of the line (the whole line when none remain).
    void invalidate(uint64_t addr, uint32_t sectors);
    const TagArrayGeometry& geometry() const { return m_geo; }

private:
    struct Way {
        uint64_t tag = 0;
        uint32_t valid = 0;  ///< sector bits
        uint32_t dirty = 0;
        uint32_t owner = 0;
    };
    /// Index of the way holding `line` in m_ways, or -1.
    int64_t find(uint64_t line) const;
    uint32_t set_of(uint64_t line) const;

    TagArrayGeometry m_geo;
    std::unique_ptr<ReplacementPolicy> m_policy;
    uint32_t m_sets;
    std::vector<Way> m_ways;  ///< set-major
};

}  // namespace stacksim::common
