// SPDX-License-Identifier: Apache-2.0
// Configuration of unified memory: translation (TLBs, walkers), GMMU, migration, eviction.
#pragma once
#include <cstdint>

#include "memory/compression_config.h"
#include "sim/param.h"
#include "sim/policy_catalog.h"

namespace stacksim::memory {

/// What `malloc` gives and whether translation is modelled.
enum class UvmMode : uint8_t {
    Off,      ///< no translation modelled (pre-UVM behaviour)
    Device,   ///< cudaMalloc + explicit copies over PCIe (the programmer-controlled baseline)
    Managed,  ///< demand paging with far faults
    Ideal,    ///< like device, but copies cost nothing (upper bound)
};

/// How a page walk reads the levels missing the page-walk cache.
enum class WalkReads : uint8_t {
    Memory,    ///< through the memory system (L1 bypassed, L2 slice, DRAM)
    Modelled,  ///< walk_memory_latency cycles per level, no request
};

/// Who serves a GPU access to a resident, partially valid page outside its valid ranges.
enum class RangeService : uint8_t {
    Gmmu,  ///< the GMMU's migration buffer asks for the bytes itself (paper 002 fig. 2): no host handler
    Host,  ///< the host's fault handler, like a far fault: fault buffer, batches, driver copies
};

/// Section [uvm]. Times in core cycles unless the name says ns; sizes in bytes.
struct UvmConfig {
    UvmMode mode = UvmMode::Off;
    uint64_t page_bytes = 65536;  ///< 4096, 65536 or 2097152
    /// true: in managed mode every allocation starts on a page boundary, so each managed
    /// allocation has pages of its own (CUDA's cudaMallocManaged, GPGPU-Sim's UVM); false:
    /// allocations are packed at 256 bytes and neighbouring arrays share pages.
    bool page_aligned_allocations = true;
    /// true: a planned migration range of which the host never wrote a byte (no memcpy to it,
    /// no non-zero memset, never copied back from the GPU) is not transferred: its bytes become
    /// valid on the GPU at once (a zero-filled frame, as CUDA's driver populates memory the CPU
    /// never touched). A far fault still waits for its fault batch (the frame is mapped by the
    /// host's handler). false: every planned byte crosses the link.
    bool populate_unwritten = true;

    // Per-SM L1 TLB.
    uint32_t l1_tlb_entries = 128;
    uint32_t l1_tlb_ways = 128;     ///< = entries: fully associative
    uint32_t l1_tlb_ports = 4;      ///< lookups per core cycle
    uint32_t l1_tlb_latency = 1;    ///< cycles for a hit
    uint32_t l1_tlb_mshrs = 16;     ///< distinct pages missing at once
    bool hit_under_miss = true;     ///< false: a miss blocks later lookups until it is filled
    uint32_t queue_depth = 64;      ///< requests buffered in front of the L1 TLB

    // Shared L2 TLB, page-walk cache and walkers.
    uint32_t l2_tlb_entries = 512;
    uint32_t l2_tlb_ways = 16;
    uint32_t l2_tlb_ports = 2;      ///< lookups per core cycle
    uint32_t l2_tlb_latency = 10;   ///< cycles
    uint32_t pwc_entries = 1024;    ///< page-walk cache: 8 KB of 8-byte upper-level entries
    uint32_t pwc_ways = 16;
    uint32_t pwc_latency = 10;      ///< cycles per level found in the page-walk cache
    uint32_t walkers = 64;          ///< shared page-table walkers
    /// Memory: each page-table level missing the page-walk cache is read from the memory
    /// system by the SM whose miss started the walk; Modelled: such a level costs
    /// `walk_memory_latency` cycles and no request is made.
    WalkReads walk_reads = WalkReads::Memory;
    uint32_t walk_memory_latency = 200;  ///< modelled walks: cycles per level read from memory

    // GMMU and far faults.
    double fault_latency_ns = 20000.0;       ///< host fault handling per batch, ns
    /// Gmmu: a range miss takes a migration-buffer entry and is a hardware DMA request (the
    /// range_* costs below); Host: it is served like a far fault (fault_latency_ns per batch,
    /// a driver copy), as a software fault handler would.
    RangeService range_service = RangeService::Gmmu;
    double range_fault_latency_ns = 0.0;     ///< extra host latency per partial-range request, ns
    /// Host time per range request, ns, served one request at a time before its copy starts (a
    /// host thread that looks up and pins the bytes: requests queue behind each other, unlike
    /// range_fault_latency_ns, which overlaps). 0: the GMMU's request needs no host software.
    double range_host_ns = 0.0;
    /// DMA setup of a chain of range requests, ns (the GMMU starts them: no driver);
    /// negative = the link's per_transfer_overhead_ns.
    double range_copy_setup_ns = 0.0;
    /// true: each range request is its own copy, and the DMA engine goes on with the next one
    /// while a copy's flight latency runs (many requests outstanding, as the GMMU's migration
    /// buffer issues them); false: requests ready meanwhile are chained into one copy at a time.
    bool range_pipelined = true;
    /// Range copies in flight at most (pipelined); ready requests beyond it are chained into
    /// the last free copy (DMA engines track a limited number of outstanding requests).
    uint32_t range_outstanding = 64;
    uint32_t fault_batch = 256;              ///< faults (distinct pages) served per batch

    // Migration.
    sim::PolicySpec mechanism{"whole_page"};  ///< a migration_mechanisms() policy
    uint32_t migration_buffer_entries = 128; ///< per memory partition; full = requests wait

    // Capacity and eviction.
    double capacity_fraction = 1.0;   ///< GPU memory as a fraction of the managed footprint
    uint64_t capacity_bytes = 0;      ///< if non-zero, overrides capacity_fraction
    sim::PolicySpec eviction{"age_lru"};  ///< an eviction_policies() policy
    uint64_t eviction_granularity_bytes = 2097152;  ///< pages evicted together (aligned group)
    /// true: the group is the eviction unit: its dirty pages are written back by one copy and
    /// their frames are taken only once all of it has reached the host, and a fault evicts a new
    /// group only when no write-back is draining (eviction on demand serialises with the
    /// migration it makes room for, as on the thesis's GPUs, §3.6.2).
    bool writeback_before_reuse = false;

    // Prefetch.
    sim::PolicySpec prefetcher{"none"};   ///< a prefetchers() policy

    CompressionConfig compression;        ///< [uvm.compression]: LCP/BDI capacity compression

    bool enabled() const { return mode != UvmMode::Off; }
    bool managed() const { return mode == UvmMode::Managed; }
    /// Levels of the radix page table for a 48-bit virtual address, 9 bits per level.
    uint32_t levels() const;
    /// The declared parameters ([uvm]).
    static const sim::Params<UvmConfig>& params();
    void validate() const;  ///< throws ConfigError "key: message"
};

}  // namespace stacksim::memory
