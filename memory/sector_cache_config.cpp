// SPDX-License-Identifier: Apache-2.0
// Declared parameters and validation of the sectored cache's configuration.
#include "memory/sector_cache_config.h"

#include "common/replacement_policy.h"
#include "sim/error.h"

namespace stacksim::memory {

const sim::Params<SectorCacheConfig>& SectorCacheConfig::params() {
    using C = SectorCacheConfig;
    static const auto p = [] {
        sim::Params<C> p;
        p.add("enabled", &C::enabled, "", "false: no cache (the SM talks to the memory system directly)");
        p.add("size_bytes", &C::size_bytes, "bytes", "capacity").range(128, uint64_t{1} << 30);
        p.add("ways", &C::ways, "ways", "associativity").range(1, 64);
        p.add("line_bytes", &C::line_bytes, "bytes", "line size").range(32, 4096).power_of_two();
        p.add("sector_bytes", &C::sector_bytes, "bytes", "sector size (the unit of valid/dirty bits and fetches)")
            .range(4, 4096).power_of_two();
        p.add("hit_latency", &C::hit_latency, "cycles", "tag stage to response, for a hit").range(0, 100000);
        p.add("input_latency", &C::input_latency, "cycles",
              "arrival to tag stage, every request: a pipelined delay (an L2 slice's ROP stage) holding any number "
              "of requests; queue_depth bounds only those waiting to enter it or the tag stage")
            .range(0, 100000);
        p.add("mshrs", &C::mshrs, "lines", "lines with misses in flight").range(1, 65536);
        p.add("mshr_merge", &C::mshr_merge, "requests", "requests merged into one MSHR").range(1, 65536);
        p.add("queue_depth", &C::queue_depth, "requests", "requests waiting for the tag stage (and, with an input_latency, as many "
              "waiting to enter the delay); then END_REQ is withheld")
            .range(1, 65536);
        p.add("write_policy", &C::write_policy, "", "write_through: forward writes; write_back: absorb (write-allocate)")
            .names({{"write_through", WritePolicy::WriteThrough}, {"write_back", WritePolicy::WriteBack}});
        p.add("write_miss", &C::write_miss, "",
              "write_back only. allocate: a write miss allocates its sectors dirty without a fetch and is "
              "acknowledged here; forward_and_fetch: it also goes on to the next level, which acknowledges "
              "it, and the sectors are fetched (GPGPU-Sim's naive write-allocate, Accel-Sim's L2 'W')")
            .names({{"allocate", WriteMiss::Allocate}, {"forward_and_fetch", WriteMiss::ForwardAndFetch}});
        p.add("victim_tags", &C::victim_tags, "lines", "per-warp victim tags (lost-locality detection for CCWS)")
            .range(0, 4096);
        p.add("atomics", &C::atomics, "", "bypass: forward and invalidate (L1); execute: read-modify-write here (L2)")
            .names({{"bypass", AtomicPolicy::Bypass}, {"execute", AtomicPolicy::Execute}});
        p.add("atomic_latency", &C::atomic_latency, "cycles", "extra cycles of an executed atomic").range(0, 100000);
        p.policy("replacement", &C::replacement, common::replacement_policies(), "replacement policy");
        p.add("hashed_sets", &C::hashed_sets, "", "XOR-hash the set index (L2 slices behind an interleaved map)");
        return p;
    }();
    return p;
}

void SectorCacheConfig::validate() const {
    if (sector_bytes > line_bytes || line_bytes / sector_bytes > 32)
        throw sim::ConfigError("sector_bytes: must divide line_bytes into at most 32 sectors");
    if (size_bytes < uint64_t{ways} * line_bytes || size_bytes % (uint64_t{ways} * line_bytes) != 0)
        throw sim::ConfigError("size_bytes: must be a multiple of ways x line_bytes");
}

}  // namespace stacksim::memory
