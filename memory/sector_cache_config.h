// SPDX-License-Identifier: Apache-2.0
// Configuration of a sectored cache (the per-SM L1 and the L2 slices).
#pragma once
#include <cstdint>
#include <string>

namespace stacksim::memory {

/// A sectored cache: the L1 between an SM and the memory system, or an L2 slice in front of a
/// DRAM channel. Times in cycles of the cache's clock.
struct SectorCacheConfig {
    bool enabled = true;
    uint64_t size_bytes = 24576;
    uint32_t ways = 4;
    uint32_t line_bytes = 128;
    uint32_t sector_bytes = 32;
    uint32_t hit_latency = 28;
    uint32_t mshrs = 32;            ///< lines with misses in flight
    uint32_t mshr_merge = 8;        ///< requests merged into one MSHR
    uint32_t queue_depth = 8;       ///< requests waiting for the tag stage; then END_REQ is withheld
    std::string write_policy = "write_through";  ///< or "write_back" (write-allocate)
    uint32_t victim_tags = 8;       ///< per-warp victim tag entries (lost-locality detection)
    std::string atomics = "bypass"; ///< "bypass" (L1: forward, invalidate) or "execute" (L2:
                                    ///< read-modify-write in the cache)
    uint32_t atomic_latency = 4;    ///< extra cycles of an executed atomic
    std::string replacement = "lru";  ///< "lru" or "fifo"
    bool hashed_sets = false;       ///< XOR-hash the set index (L2 slices)

    /// Throws ConfigError("key: message") on an invalid value.
    void validate() const;
};

}  // namespace stacksim::memory
