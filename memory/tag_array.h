// SPDX-License-Identifier: Apache-2.0
// Set-associative, sectored tag array with a replacement policy from the registry (plain C++).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/registry.h"

namespace stacksim::memory {

/// How a full set chooses its victim: the valid way with the smallest key.
class ReplacementPolicy {
public:
    virtual ~ReplacementPolicy() = default;
    /// Key of a way last used at `last_use` and filled at `filled` (both access counts).
    virtual uint64_t victim_key(uint64_t last_use, uint64_t filled) const = 0;
};

/// Replacement policies by name: "lru" (least recently used), "fifo" (oldest fill).
using ReplacementRegistry = sim::Registry<ReplacementPolicy>;
const ReplacementRegistry& replacement_registry();

/// Geometry of a tag array. Sizes in bytes.
struct TagArrayGeometry {
    uint64_t size_bytes = 16384;
    uint32_t ways = 4;
    uint32_t line_bytes = 128;
    uint32_t sector_bytes = 32;
    std::string replacement = "lru";  ///< a replacement_registry() name
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

/// Tags, per-sector valid and dirty bits, and LRU or FIFO order. Addresses are byte addresses;
/// sector masks have bit i for sector i of the line.
class TagArray {
public:
    explicit TagArray(const TagArrayGeometry& g);

    uint64_t line_of(uint64_t addr) const { return addr & ~uint64_t{m_geo.line_bytes - 1}; }
    /// Valid sectors of the line holding `addr` (0 if absent). Touches LRU when `touch`.
    uint32_t lookup(uint64_t addr, bool touch = true);
    /// Makes the line resident (allocating a way, evicting the LRU line if needed) and marks
    /// `sectors` valid; returns the eviction, if a valid line was replaced.
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
        uint64_t last_use = 0;
        uint64_t filled = 0;
        uint32_t owner = 0;
    };
    Way* find(uint64_t line);
    uint64_t set_of(uint64_t line) const;

    TagArrayGeometry m_geo;
    std::unique_ptr<ReplacementPolicy> m_policy;
    uint32_t m_sets;
    std::vector<Way> m_ways;  ///< set-major
    uint64_t m_clock = 0;
};


}  // namespace stacksim::memory
