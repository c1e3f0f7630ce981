// SPDX-License-Identifier: Apache-2.0
// Reads the [uvm] section into memory::UvmConfig.
#include "top/uvm_config_reader.h"

#include "memory/eviction_policy.h"
#include "memory/migration_mechanism.h"
#include "memory/prefetcher.h"

namespace stacksim::top {

void read_uvm_config(sim::ConfigSection s, memory::UvmConfig& u) {
    s.read_choice("mode", u.mode, {"off", "device", "managed", "ideal"});
    s.read("page_bytes", u.page_bytes);
    s.read("l1_tlb_entries", u.l1_tlb_entries);
    s.read("l1_tlb_ways", u.l1_tlb_ways);
    s.read("l1_tlb_ports", u.l1_tlb_ports);
    s.read("l1_tlb_latency", u.l1_tlb_latency);
    s.read("l1_tlb_mshrs", u.l1_tlb_mshrs);
    s.read("hit_under_miss", u.hit_under_miss);
    s.read("queue_depth", u.queue_depth);
    s.read("l2_tlb_entries", u.l2_tlb_entries);
    s.read("l2_tlb_ways", u.l2_tlb_ways);
    s.read("l2_tlb_ports", u.l2_tlb_ports);
    s.read("l2_tlb_latency", u.l2_tlb_latency);
    s.read("pwc_entries", u.pwc_entries);
    s.read("pwc_ways", u.pwc_ways);
    s.read("pwc_latency", u.pwc_latency);
    s.read("walkers", u.walkers);
    s.read_choice("walk_reads", u.walk_reads, {"memory", "modelled"});
    s.read("walk_memory_latency", u.walk_memory_latency);
    s.read("fault_latency_ns", u.fault_latency_ns);
    s.read("range_fault_latency_ns", u.range_fault_latency_ns);
    s.read("range_copy_setup_ns", u.range_copy_setup_ns);
    s.read("range_pipelined", u.range_pipelined);
    s.read("range_outstanding", u.range_outstanding);
    s.read("fault_batch", u.fault_batch);
    s.read_choice("mechanism", u.mechanism, memory::migration_registry().names());
    s.read("migration_unit_bytes", u.migration_unit_bytes);
    s.read("gap_threshold_bytes", u.gap_threshold_bytes);
    s.read("max_ranges", u.max_ranges);
    s.read("migration_buffer_entries", u.migration_buffer_entries);
    s.read("capacity_fraction", u.capacity_fraction);
    s.read("capacity_bytes", u.capacity_bytes);
    s.read_choice("eviction", u.eviction, memory::eviction_registry().names());
    s.read("eviction_granularity_bytes", u.eviction_granularity_bytes);
    s.read_choice("prefetcher", u.prefetcher, memory::prefetcher_registry().names());
    s.read("prefetch_pages", u.prefetch_pages);
    sim::validate_in(s, u);
}

}  // namespace stacksim::top
