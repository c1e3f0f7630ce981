// SPDX-License-Identifier: Apache-2.0
// Configuration of unified memory: validation.
#include "memory/uvm_config.h"

#include "memory/eviction_policy.h"
#include "memory/migration_mechanism.h"
#include "memory/prefetcher.h"
#include "sim/error.h"

namespace stacksim::memory {

namespace {
bool pow2(uint64_t v) { return v && !(v & (v - 1)); }
uint32_t log2u(uint64_t v) {
    uint32_t n = 0;
    while (v > 1) {
        v >>= 1;
        ++n;
    }
    return n;
}
}  // namespace

uint32_t UvmConfig::levels() const { return (48 - log2u(page_bytes) + 8) / 9; }

void UvmConfig::validate() const {
    using sim::ConfigError;
    if (mode != "off" && mode != "device" && mode != "managed" && mode != "ideal")
        throw ConfigError("mode: must be off, device, managed or ideal");
    if (walk_reads != "memory" && walk_reads != "modelled")
        throw ConfigError("walk_reads: must be memory or modelled");
    if (page_bytes != 4096 && page_bytes != 65536 && page_bytes != 2097152)
        throw ConfigError("page_bytes: must be 4096, 65536 or 2097152");
    if (l1_tlb_entries == 0 || l1_tlb_ways == 0 || l1_tlb_entries % l1_tlb_ways)
        throw ConfigError("l1_tlb_entries: must be a positive multiple of l1_tlb_ways");
    if (l1_tlb_ports == 0) throw ConfigError("l1_tlb_ports: must be positive");
    if (l1_tlb_mshrs == 0) throw ConfigError("l1_tlb_mshrs: must be positive");
    if (queue_depth == 0) throw ConfigError("queue_depth: must be positive");
    if (l2_tlb_entries == 0 || l2_tlb_ways == 0 || l2_tlb_entries % l2_tlb_ways)
        throw ConfigError("l2_tlb_entries: must be a positive multiple of l2_tlb_ways");
    if (l2_tlb_ports == 0) throw ConfigError("l2_tlb_ports: must be positive");
    if (pwc_entries == 0 || pwc_ways == 0 || pwc_entries % pwc_ways)
        throw ConfigError("pwc_entries: must be a positive multiple of pwc_ways");
    if (walkers == 0) throw ConfigError("walkers: must be positive");
    if (!(fault_latency_ns >= 0)) throw ConfigError("fault_latency_ns: must be >= 0");
    if (!(range_fault_latency_ns >= 0)) throw ConfigError("range_fault_latency_ns: must be >= 0");
    if (fault_batch == 0) throw ConfigError("fault_batch: must be positive");
    if (!migration_registry().contains(mechanism)) throw ConfigError("mechanism: unknown migration mechanism");
    if (!pow2(migration_unit_bytes) || migration_unit_bytes < 32 || migration_unit_bytes > page_bytes)
        throw ConfigError("migration_unit_bytes: must be a power of two in 32..page_bytes");
    if (max_ranges == 0) throw ConfigError("max_ranges: must be positive");
    if (range_outstanding == 0) throw ConfigError("range_outstanding: must be positive");
    if (migration_buffer_entries == 0) throw ConfigError("migration_buffer_entries: must be positive");
    if (!(capacity_fraction > 0) || capacity_fraction > 1.0)
        throw ConfigError("capacity_fraction: must be in (0, 1]");
    if (!eviction_registry().contains(eviction)) throw ConfigError("eviction: unknown eviction policy");
    if (!pow2(eviction_granularity_bytes)) throw ConfigError("eviction_granularity_bytes: must be a power of two");
    if (!prefetcher_registry().contains(prefetcher)) throw ConfigError("prefetcher: unknown prefetcher");
}

}  // namespace stacksim::memory
