// SPDX-License-Identifier: Apache-2.0
// Validation of the SM configuration.
#include "core/sm_config.h"

#include <fmt/format.h>

#include "sim/error.h"

namespace stacksim::core {

namespace {
void positive(const char* key, uint64_t v) {
    if (v == 0) throw sim::ConfigError(fmt::format("{}: must be positive", key));
}
bool power_of_two(uint64_t v) { return v && (v & (v - 1)) == 0; }
}  // namespace

void SmConfig::validate() const {
    positive("max_threads", max_threads);
    positive("max_ctas", max_ctas);
    positive("registers", registers);
    positive("regs_per_thread", regs_per_thread);
    positive("schedulers", schedulers);
    positive("ibuffer_entries", ibuffer_entries);
    positive("fetch_width", fetch_width);
    positive("alu.units", alu.units);
    positive("alu.initiation_interval", alu.initiation_interval);
    positive("fp64.units", fp64.units);
    positive("fp64.initiation_interval", fp64.initiation_interval);
    positive("regfile_banks", regfile_banks);
    positive("collector_units", collector_units);
    positive("instruction_bytes", instruction_bytes);
    positive("icache_ways", icache_ways);
    if (!power_of_two(icache_line_bytes) || icache_line_bytes < instruction_bytes)
        throw sim::ConfigError("icache_line_bytes: must be a power of two holding at least one instruction");
    if (icache_bytes < uint64_t{icache_ways} * icache_line_bytes || icache_bytes % (icache_ways * icache_line_bytes))
        throw sim::ConfigError("icache_bytes: must be a multiple of icache_ways x icache_line_bytes");
    if (const_cache_bytes < 4 * 64 || const_cache_bytes % (4 * 64))
        throw sim::ConfigError("const_cache_bytes: must be a multiple of 256 (4 ways of 64-byte lines)");
    positive("sfu.units", sfu.units);
    positive("sfu.initiation_interval", sfu.initiation_interval);
    positive("ldst.units", ldst.units);
    positive("ldst.initiation_interval", ldst.initiation_interval);
    positive("shared_memory_banks", shared_memory_banks);
    positive("max_pending_requests", max_pending_requests);
    positive("requests_per_cycle", requests_per_cycle);
    if (max_threads % 32 != 0) throw sim::ConfigError("max_threads: must be a multiple of 32");
    if (max_threads / 32 > 1024) throw sim::ConfigError("max_threads: at most 32768");
    if (!power_of_two(line_bytes) || line_bytes < 32 || line_bytes > 4096)
        throw sim::ConfigError("line_bytes: must be a power of two in 32..4096");
    if (!power_of_two(sector_bytes) || sector_bytes > line_bytes || line_bytes / sector_bytes > 32)
        throw sim::ConfigError("sector_bytes: must be a power of two dividing line_bytes into at most 32 sectors");
    if (ibuffer_entries > 16) throw sim::ConfigError("ibuffer_entries: at most 16");
}

}  // namespace stacksim::core
