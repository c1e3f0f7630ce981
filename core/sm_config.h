// SPDX-License-Identifier: Apache-2.0
// Configuration of one streaming multiprocessor; latencies in core cycles.
#pragma once
#include <cstdint>

#include "sim/param.h"

namespace stacksim::core {

/// One execution pipeline class: `units` pipelines, each accepting a warp instruction every
/// `initiation_interval` cycles, with results after `latency` cycles.
struct PipeConfig {
    uint32_t units = 1;
    uint32_t initiation_interval = 1;  ///< cycles between issues to one unit
    uint32_t latency = 4;              ///< cycles from issue to writeback
    static const sim::Params<PipeConfig>& params();
};

/// How a missing I-cache line is filled.
enum class IcacheFill : uint8_t {
    Latency,  ///< after a fixed `icache_miss_latency`
    Memory,   ///< by a read through the memory system (L1 forwarded, L2, DRAM) into the code area
};

/// Resources and timing of an SM (SPEC §1). Defaults: a GTX980-like Maxwell SM.
struct SmConfig {
    // Occupancy limits.
    uint32_t max_threads = 2048;
    uint32_t max_ctas = 32;
    uint32_t registers = 65536;          ///< 32-bit registers per SM
    uint32_t shared_memory_bytes = 98304;
    uint32_t regs_per_thread = 32;       ///< used when a kernel gives no register count

    // Front end.
    uint32_t schedulers = 4;             ///< warp schedulers; warp w belongs to w % schedulers
    uint32_t ibuffer_entries = 2;        ///< decoded instructions per warp
    uint32_t fetch_width = 2;            ///< instructions fetched per fetch
    uint32_t fetch_latency = 1;          ///< cycles from fetch to ready in the I-buffer

    // Execution.
    PipeConfig alu{4, 1, 6};
    PipeConfig fp64{4, 32, 20};           ///< GTX980: 1/32 of the FP32 rate
    PipeConfig sfu{4, 4, 20};
    PipeConfig ldst{1, 1, 0};
    uint32_t branch_latency = 1;
    uint32_t shared_memory_latency = 24;  ///< cycles for a conflict-free shared access
    uint32_t shared_memory_banks = 32;

    // Register file and operand collector.
    uint32_t regfile_banks = 16;          ///< single-ported banks; reg r of warp w in (r + w) % banks
    uint32_t collector_units = 8;

    // Instruction cache (instructions are `instruction_bytes` apart).
    uint32_t icache_bytes = 16384;
    uint32_t icache_ways = 4;
    uint32_t icache_line_bytes = 128;
    uint32_t icache_miss_latency = 120;   ///< cycles to fill a missing line (icache_fill = latency)
    IcacheFill icache_fill = IcacheFill::Latency;
    uint32_t instruction_bytes = 8;
    /// Every instruction fetch and kernel-parameter load hits (Accel-Sim's
    /// -gpgpu_perfect_inst_const_cache): no fills, no memory traffic.
    bool perfect_inst_const_cache = false;
    /// Host speed only: a stalled scheduler's scan and a blocked warp's check are reused while
    /// nothing they read changed (core/issue_memo.h); results are identical with false.
    bool issue_memo = true;

    // Constant cache (kernel parameters, ld.param).
    uint32_t const_cache_bytes = 2048;
    uint32_t const_cache_latency = 8;     ///< hit
    uint32_t const_miss_latency = 120;

    // Memory path.
    uint32_t line_bytes = 128;           ///< coalescing granularity
    uint32_t sector_bytes = 32;
    uint32_t max_pending_requests = 64;  ///< memory requests queued or in flight; then throttle
    uint32_t requests_per_cycle = 1;     ///< memory requests sent per cycle
    /// Context regions (core/context_region.h) are staggered by this many bytes over
    /// context_stagger_steps steps: set by top/ from the memory's interleave and partitions
    /// (not configuration keys).
    uint32_t context_stagger_bytes = 0;
    uint32_t context_stagger_steps = 1;

    /// The declared parameters ([gpu.sm]). The warp-scheduler choice, in the same table, is
    /// declared by top/ (the registry lives in sched/, which core/ does not see).
    static const sim::Params<SmConfig>& params();
    /// Checks across keys; throws ConfigError("key: message").
    void validate() const;
};

}  // namespace stacksim::core
