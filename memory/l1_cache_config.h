// SPDX-License-Identifier: Apache-2.0
// Configuration of the per-SM L1 data cache.
#pragma once
#include <cstdint>
#include <string>

namespace stacksim::memory {

/// Sectored L1 data cache between an SM and the memory system. Times in core cycles.
struct L1CacheConfig {
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

    /// Throws ConfigError("key: message") on an invalid value.
    void validate() const;
};

}  // namespace stacksim::memory
