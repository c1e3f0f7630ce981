// SPDX-License-Identifier: Apache-2.0
// Declared parameters and validation of the SM configuration.
#include "core/sm_config.h"

#include "sim/error.h"

namespace stacksim::core {

const sim::Params<PipeConfig>& PipeConfig::params() {
    using C = PipeConfig;
    static const auto p = [] {
        sim::Params<C> p;
        p.add("units", &C::units, "pipelines", "pipelines of this class per SM").range(1, 64);
        p.add("initiation_interval", &C::initiation_interval, "cycles",
              "cycles between two issues to one pipeline (SFU: quarter rate; FP64 on GTX980: 1/32)")
            .range(1, 1024);
        p.add("latency", &C::latency, "cycles",
              "cycles from operands read to writeback (LD/ST: see shared memory and memory)")
            .range(0, 10000);
        return p;
    }();
    return p;
}

const sim::Params<SmConfig>& SmConfig::params() {
    using C = SmConfig;
    static const auto p = [] {
        sim::Params<C> p;
        p.add("max_threads", &C::max_threads, "threads", "resident threads (warp slots = max_threads / 32)")
            .range(32, 32768)
            .check([](uint32_t v) { return v % 32 == 0; }, "a multiple of 32");
        p.add("max_ctas", &C::max_ctas, "CTAs", "resident CTAs").range(1, 1024);
        p.add("registers", &C::registers, "registers", "32-bit registers (allocated per warp in units of 256)")
            .range(1, 1u << 24);
        p.add("shared_memory_bytes", &C::shared_memory_bytes, "bytes", "shared memory").range(0, 1u << 24);
        p.add("regs_per_thread", &C::regs_per_thread, "registers",
              "registers per thread assumed for every kernel (PTX registers are virtual)")
            .range(1, 255);
        p.add("schedulers", &C::schedulers, "schedulers",
              "warp schedulers; warp slot w belongs to scheduler w % schedulers")
            .range(1, 64);
        p.add("ibuffer_entries", &C::ibuffer_entries, "instructions", "decoded instructions per warp").range(1, 16);
        p.add("fetch_width", &C::fetch_width, "instructions", "instructions fetched per fetch (one warp fetches per cycle)")
            .range(1, 64);
        p.add("fetch_latency", &C::fetch_latency, "cycles", "cycles from fetch to ready in the I-buffer").range(0, 10000);
        p.table("alu", &C::alu, "single-precision / integer ALU pipelines");
        p.table("fp64", &C::fp64, "double-precision pipelines");
        p.table("sfu", &C::sfu, "special-function pipelines (sqrt, rcp, ex2, ...)");
        p.table("ldst", &C::ldst, "load/store units (address generation, coalescing)");
        p.add("branch_latency", &C::branch_latency, "cycles", "cycles a control instruction occupies its scheduler's branch unit")
            .range(0, 10000);
        p.add("shared_memory_latency", &C::shared_memory_latency, "cycles", "cycles for a conflict-free shared access")
            .range(0, 100000);
        p.add("shared_memory_banks", &C::shared_memory_banks, "banks", "4-byte-wide shared-memory banks").range(1, 1024);
        p.add("regfile_banks", &C::regfile_banks, "banks",
              "single-ported register-file banks; register r of warp w is in bank (r + w) % banks")
            .range(1, 1024);
        p.add("collector_units", &C::collector_units, "units",
              "operand-collector units (instructions gathering operands at once)")
            .range(1, 1024);
        p.add("icache_bytes", &C::icache_bytes, "bytes", "instruction cache capacity").range(4, 1u << 24);
        p.add("icache_ways", &C::icache_ways, "ways", "instruction cache associativity").range(1, 64);
        p.add("icache_line_bytes", &C::icache_line_bytes, "bytes", "instruction cache line").range(4, 4096).power_of_two();
        p.add("icache_miss_latency", &C::icache_miss_latency, "cycles",
              "cycles to fill a missing I-cache line (icache_fill = latency)")
            .range(0, 1000000);
        p.add("icache_fill", &C::icache_fill, "",
              "latency: a missing line arrives after icache_miss_latency; memory: it is read through the "
              "memory system (L2, DRAM) like data, from the code area")
            .names({{"latency", IcacheFill::Latency}, {"memory", IcacheFill::Memory}});
        p.add("instruction_bytes", &C::instruction_bytes, "bytes",
              "distance between instructions in the I-cache's address space")
            .range(1, 64);
        p.add("perfect_inst_const_cache", &C::perfect_inst_const_cache, "",
              "every instruction fetch hits the I-cache (fetch_latency) and every kernel-parameter load the "
              "constant cache (const_cache_latency): no fill time, no memory traffic (Accel-Sim's "
              "-gpgpu_perfect_inst_const_cache)");
        p.add("issue_memo", &C::issue_memo, "",
              "host speed only: reuse a stalled scheduler's scan, and a blocked warp's check, while nothing "
              "they read has changed (core/issue_memo.h); false scans every warp every cycle, with identical "
              "results");
        p.add("const_cache_bytes", &C::const_cache_bytes, "bytes",
              "constant cache for kernel parameters (4 ways of 64-byte lines)")
            .range(256, 1u << 20)
            .check([](uint32_t v) { return v % 256 == 0; }, "a multiple of 256");
        p.add("const_cache_latency", &C::const_cache_latency, "cycles", "ld.param / ld.const latency on a constant-cache hit")
            .range(0, 1000000);
        p.add("const_miss_latency", &C::const_miss_latency, "cycles", "ld.param / ld.const latency on a constant-cache miss")
            .range(0, 1000000);
        p.add("line_bytes", &C::line_bytes, "bytes", "coalescing line size").range(32, 4096).power_of_two();
        p.add("sector_bytes", &C::sector_bytes, "bytes", "sector size within a line").range(4, 4096).power_of_two();
        p.add("max_pending_requests", &C::max_pending_requests, "requests",
              "memory requests queued or in flight per SM before LD/ST issue stalls (memory throttle)")
            .range(1, 65536);
        p.add("requests_per_cycle", &C::requests_per_cycle, "requests", "memory requests the SM sends per cycle")
            .range(1, 64);
        return p;
    }();
    return p;
}

void SmConfig::validate() const {
    if (icache_line_bytes < instruction_bytes)
        throw sim::ConfigError("icache_line_bytes: must hold at least one instruction (instruction_bytes)");
    if (icache_bytes < uint64_t{icache_ways} * icache_line_bytes || icache_bytes % (icache_ways * icache_line_bytes))
        throw sim::ConfigError("icache_bytes: must be a multiple of icache_ways x icache_line_bytes");
    if (sector_bytes > line_bytes || line_bytes / sector_bytes > 32)
        throw sim::ConfigError("sector_bytes: must divide line_bytes into at most 32 sectors");
    if (icache_fill == IcacheFill::Memory && (icache_line_bytes > line_bytes || icache_line_bytes < sector_bytes))
        throw sim::ConfigError("icache_line_bytes: with icache_fill = memory, between sector_bytes and line_bytes "
                               "(one memory request fills a line)");
}

}  // namespace stacksim::core
