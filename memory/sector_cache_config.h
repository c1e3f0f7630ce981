// SPDX-License-Identifier: Apache-2.0
// Configuration of a sectored cache (the per-SM L1 and the L2 slices).
#pragma once
#include <cstdint>

#include "sim/mem_extension.h"
#include "sim/param.h"
#include "sim/policy_catalog.h"

namespace stacksim::memory {

/// What a write does to the cache.
enum class WritePolicy : uint8_t {
    WriteThrough,  ///< forwarded; resident sectors updated
    WriteBack,     ///< absorbed (write-allocate); dirty victims written back
};

/// What a write that misses does in a write-back cache.
enum class WriteMiss : uint8_t {
    Allocate,         ///< the written sectors are allocated dirty, without a fetch; acknowledged here
    ForwardAndFetch,  ///< GPGPU-Sim's naive write-allocate: the write goes on to the next level and
                      ///< is acknowledged from there; the sectors are fetched and kept dirty
};

/// Where an atomic is performed.
enum class AtomicPolicy : uint8_t {
    Bypass,   ///< forwarded, the line invalidated (an L1)
    Execute,  ///< read-modify-write in the cache (an L2 slice)
};

/// Which level a cache is: what it does with the traffic classes that are not demand data.
enum class CacheRole : uint8_t {
    L1,  ///< beside an SM: forwards instruction, context and page-walk requests without allocating
    L2,  ///< a slice in front of DRAM: serves every class as data (counts walk and instruction reads)
};

/// Bit of TrafficClass `c` in SectorCacheConfig::classes.
constexpr uint32_t traffic_bit(sim::TrafficClass c) { return 1u << static_cast<unsigned>(c); }

/// A sectored cache: the L1 between an SM and the memory system ([gpu.l1]), or an L2 slice in
/// front of a DRAM channel ([memory.l2]). Times in cycles of the cache's clock.
struct SectorCacheConfig {
    bool enabled = true;
    uint64_t size_bytes = 24576;
    uint32_t ways = 4;
    uint32_t line_bytes = 128;
    uint32_t sector_bytes = 32;
    uint32_t hit_latency = 28;
    /// Cycles from a request's arrival to its tag stage, every request (a fixed queue in front
    /// of the cache: an L2 slice's ROP stage, Accel-Sim's gpgpu_l2_rop_latency). Pipelined: it
    /// holds any number of requests; `queue_depth` bounds those waiting at either end. 0: none.
    uint32_t input_latency = 0;
    uint32_t mshrs = 32;
    uint32_t mshr_merge = 8;
    uint32_t queue_depth = 8;
    WritePolicy write_policy = WritePolicy::WriteThrough;
    WriteMiss write_miss = WriteMiss::Allocate;  ///< write_back only
    uint32_t victim_tags = 8;
    AtomicPolicy atomics = AtomicPolicy::Bypass;
    uint32_t atomic_latency = 4;
    sim::PolicySpec replacement{"lru"};
    bool hashed_sets = false;
    /// Set by the assembly, not a key: the cache's level ([gpu.l1]: L1, [memory.l2]: L2) and the
    /// traffic classes that can reach it in this run (traffic_bit()s; its per-class counters
    /// exist only for those).
    CacheRole role = CacheRole::L1;
    uint32_t classes = ~0u;

    /// The declared parameters (each key's name, unit, description and allowed values).
    static const sim::Params<SectorCacheConfig>& params();
    /// Checks across keys; throws ConfigError("key: message").
    void validate() const;
};

}  // namespace stacksim::memory
