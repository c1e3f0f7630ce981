// SPDX-License-Identifier: Apache-2.0
// Configuration of unified memory: validation.
#include "memory/uvm_config.h"

#include "memory/eviction_policy.h"
#include "memory/migration_mechanism.h"
#include "memory/prefetcher.h"
#include "sim/error.h"

namespace stacksim::memory {

namespace {
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

const sim::Params<UvmConfig>& UvmConfig::params() {
    using C = UvmConfig;
    static const auto p = [] {
        sim::Params<C> p;
        p.add("mode", &C::mode, "",
              "off: no translation; device: cudaMalloc + explicit copies (programmer baseline); managed: demand "
              "paging; ideal: like device, copies free")
            .names({{"off", UvmMode::Off}, {"device", UvmMode::Device}, {"managed", UvmMode::Managed},
                    {"ideal", UvmMode::Ideal}});
        p.add("page_bytes", &C::page_bytes, "bytes", "page size")
            .check([](uint64_t v) { return v == 4096 || v == 65536 || v == 2097152; }, "4096, 65536 or 2097152");
        p.add("page_aligned_allocations", &C::page_aligned_allocations, "",
              "managed mode: every allocation starts on a page boundary (each managed allocation owns its pages, "
              "as cudaMallocManaged); false: packed at 256 bytes, neighbouring arrays share pages");
        p.add("populate_unwritten", &C::populate_unwritten, "",
              "a planned migration range the host never wrote (no memcpy to it, no non-zero memset, never copied "
              "back) is populated on the GPU without a transfer; far faults still wait for their batch");
        p.add("l1_tlb_entries", &C::l1_tlb_entries, "entries", "per-SM L1 TLB entries").range(1, 1u << 16);
        p.add("l1_tlb_ways", &C::l1_tlb_ways, "ways", "L1 TLB associativity (= entries: fully associative)")
            .range(1, 1u << 16);
        p.add("l1_tlb_ports", &C::l1_tlb_ports, "lookups/cycle", "L1 TLB lookups per core cycle").range(1, 64);
        p.add("l1_tlb_latency", &C::l1_tlb_latency, "cycles", "L1 TLB hit latency").range(0, 100000);
        p.add("l1_tlb_mshrs", &C::l1_tlb_mshrs, "pages", "distinct pages missing in the L1 TLB at once").range(1, 4096);
        p.add("hit_under_miss", &C::hit_under_miss, "", "false: an L1 TLB miss blocks later lookups until filled");
        p.add("queue_depth", &C::queue_depth, "requests", "requests buffered in front of the L1 TLB").range(1, 65536);
        p.add("l2_tlb_entries", &C::l2_tlb_entries, "entries", "shared L2 TLB entries").range(1, 1u << 20);
        p.add("l2_tlb_ways", &C::l2_tlb_ways, "ways", "L2 TLB associativity").range(1, 1u << 20);
        p.add("l2_tlb_ports", &C::l2_tlb_ports, "lookups/cycle", "L2 TLB lookups per core cycle").range(1, 64);
        p.add("l2_tlb_latency", &C::l2_tlb_latency, "cycles", "L2 TLB latency").range(0, 100000);
        p.add("pwc_entries", &C::pwc_entries, "entries", "page-walk cache entries (8-byte upper-level PTEs)")
            .range(1, 1u << 20);
        p.add("pwc_ways", &C::pwc_ways, "ways", "page-walk cache associativity").range(1, 1u << 20);
        p.add("pwc_latency", &C::pwc_latency, "cycles", "per level found in the page-walk cache").range(0, 100000);
        p.add("walkers", &C::walkers, "walkers", "shared page-table walkers").range(1, 4096);
        p.add("walk_reads", &C::walk_reads, "",
              "memory: walks read missing levels through L2 and DRAM; modelled: walk_memory_latency per level")
            .names({{"memory", WalkReads::Memory}, {"modelled", WalkReads::Modelled}});
        p.add("walk_memory_latency", &C::walk_memory_latency, "cycles", "modelled walks: cycles per level read from memory")
            .range(0, 1000000);
        p.add("fault_latency_ns", &C::fault_latency_ns, "ns", "host fault handling per batch of far faults")
            .range(0.0, 1e9);
        p.add("range_service", &C::range_service, "",
              "who serves a miss on a partially valid page: gmmu (migration buffer, hardware DMA request, "
              "the range_* costs) or host (the fault handler, batched like far faults, driver copies)")
            .names({{"gmmu", RangeService::Gmmu}, {"host", RangeService::Host}});
        p.add("range_fault_latency_ns", &C::range_fault_latency_ns, "ns", "extra host latency per partial-range request")
            .range(0.0, 1e9);
        p.add("range_host_ns", &C::range_host_ns, "ns",
              "host time per partial-range request, one request at a time, before its copy (0: no host software)")
            .range(0.0, 1e9);
        p.add("range_copy_setup_ns", &C::range_copy_setup_ns, "ns",
              "DMA setup of a chain of range requests; -1 = the link's per_transfer_overhead_ns")
            .check([](double v) { return v == -1.0 || (v >= 0.0 && v <= 1e9); }, "-1 or 0..1e9");
        p.add("range_pipelined", &C::range_pipelined, "",
              "true: each range request is its own copy, pipelined on the DMA engine; false: chained, one copy at a time");
        p.add("range_outstanding", &C::range_outstanding, "copies", "range copies in flight at most (pipelined)")
            .range(1, 65536);
        p.add("fault_batch", &C::fault_batch, "pages", "faults (distinct pages) served per batch").range(1, 1u << 20);
        p.policy("mechanism", &C::mechanism, migration_mechanisms(), "page migration mechanism (paper 002)");
        p.add("migration_buffer_entries", &C::migration_buffer_entries, "entries",
              "migration buffer per memory partition; when full, requests wait")
            .range(1, 1u << 20);
        p.add("capacity_fraction", &C::capacity_fraction, "", "GPU memory as a fraction of the managed footprint")
            .check([](double v) { return v > 0.0 && v <= 1.0; }, "in (0, 1]");
        p.add("capacity_bytes", &C::capacity_bytes, "bytes", "GPU memory for managed pages; non-zero overrides capacity_fraction")
            .range(0, uint64_t{1} << 50);
        p.policy("eviction", &C::eviction, eviction_policies(), "which resident pages leave when GPU memory is full");
        p.add("eviction_granularity_bytes", &C::eviction_granularity_bytes, "bytes", "pages evicted together (aligned group)")
            .range(4096, uint64_t{1} << 40)
            .power_of_two();
        p.add("writeback_before_reuse", &C::writeback_before_reuse, "",
              "true: an evicted group's dirty pages are written back by one copy and their frames are reused "
              "only after all of it reached the host, and a fault evicts only when nothing is draining "
              "(on-demand eviction serialised with migration)");
        p.policy("prefetcher", &C::prefetcher, prefetchers(), "pages migrated along with a faulting one");
        p.table("compression", &C::compression, "capacity compression of managed pages: LCP layout, BDI lines");
        return p;
    }();
    return p;
}

void UvmConfig::validate() const {
    using sim::ConfigError;
    if (l1_tlb_entries % l1_tlb_ways) throw ConfigError("l1_tlb_entries: must be a multiple of l1_tlb_ways");
    if (l2_tlb_entries % l2_tlb_ways) throw ConfigError("l2_tlb_entries: must be a multiple of l2_tlb_ways");
    if (pwc_entries % pwc_ways) throw ConfigError("pwc_entries: must be a multiple of pwc_ways");
}

}  // namespace stacksim::memory
