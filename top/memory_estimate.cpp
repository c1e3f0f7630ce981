// SPDX-License-Identifier: Apache-2.0
// The host memory a run will need, estimated from its configuration before anything is built.
#include "top/memory_estimate.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "workloads/workload_registry.h"

namespace stacksim::top {

namespace {

// Per-item costs of the simulator's state, measured as peak resident size over item count
// (figures in docs/usage.md, "Memory limit").
constexpr uint64_t kLineBytes = 32;         ///< tag array: one line's tag, sector bits, owner, replacement state
constexpr uint64_t kTlbEntryBytes = 24;     ///< TLB / page-walk cache entry
constexpr uint64_t kVictimTagBytes = 16;    ///< one victim tag of one warp
constexpr uint64_t kThreadSlotBytes = 24;   ///< bookkeeping per thread slot of an SM
constexpr uint64_t kResidentThreadBytes = 256;  ///< registers and state of a resident thread
constexpr uint64_t kSmBytes = 64 * 1024;    ///< the rest of an SM (pipelines, queues, stats)
constexpr uint64_t kFlitSlotBytes = 48;     ///< one flit slot of a router's input buffer
constexpr uint64_t kRouterPorts = 8;        ///< router ports, an upper bound (5 + terminals)
constexpr uint64_t kBaseBytes = 16 * 1024 * 1024;  ///< the program, SystemC, fixed-size modules

uint64_t lines(const memory::SectorCacheConfig& c) { return c.line_bytes ? c.size_bytes / c.line_bytes : 0; }


uint64_t physical_memory() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
}

}  // namespace

std::string human_bytes(uint64_t bytes) {
    const double b = static_cast<double>(bytes);
    if (b >= 1e9) return fmt::format("{:.1f} GB", b / 1e9);
    if (b >= 1e6) return fmt::format("{:.0f} MB", b / 1e6);
    return fmt::format("{:.0f} KB", b / 1e3);
}

uint64_t default_memory_limit_bytes() { return physical_memory() / 2; }

uint64_t network_memory_bytes(const noc::NetworkConfig& n) {
    // Both layers of the stacked system at most; the buffers of every port and VC.
    const uint64_t routers = 2 * uint64_t{n.width} * n.height + n.memory_terminals();
    return routers * kRouterPorts * n.vcs * n.buffer_depth * kFlitSlotBytes;
}

std::string MemoryEstimate::breakdown() const {
    std::vector<std::pair<uint64_t, const char*>> parts = {
        {workload, "workload data"}, {caches, "caches"},           {translation, "TLBs"},
        {cores, "SM state"},         {network, "network buffers"}, {base, "program"}};
    std::stable_sort(parts.begin(), parts.end(), [](auto& a, auto& b) { return a.first > b.first; });
    std::string s;
    for (auto& [bytes, name] : parts)
        if (bytes * 100 > total()) s += fmt::format("{}{} {}", s.empty() ? "" : ", ", name, human_bytes(bytes));
    return s;
}

MemoryEstimate estimate_memory(const RunConfig& cfg) {
    MemoryEstimate e;
    const uint64_t sms = cfg.gpu.num_sms;
    const uint64_t warps = cfg.sm.max_threads / 32;
    e.base = kBaseBytes;

    // Per SM: L1, I-cache (its lines), constant cache (64-byte lines), victim tags per warp.
    uint64_t per_sm_lines = (cfg.l1.enabled ? lines(cfg.l1) : 0) + cfg.sm.icache_bytes / cfg.sm.icache_line_bytes +
                            cfg.sm.const_cache_bytes / 64;
    e.caches = sms * (per_sm_lines * kLineBytes + (cfg.l1.enabled ? warps * cfg.l1.victim_tags * kVictimTagBytes : 0));
    if (cfg.mem.model == MemoryModel::Hierarchy) e.caches += uint64_t{cfg.address_map.partitions} * lines(cfg.l2) * kLineBytes;

    if (cfg.uvm.enabled())
        e.translation = (sms * cfg.uvm.l1_tlb_entries + cfg.uvm.l2_tlb_entries + cfg.uvm.pwc_entries) * kTlbEntryBytes;

    e.cores = sms * (kSmBytes + uint64_t{cfg.sm.max_threads} * (kThreadSlotBytes + kResidentThreadBytes));

    if (cfg.mem.model == MemoryModel::Hierarchy && cfg.mem.interconnect != Interconnect::Crossbar)
        e.network = network_memory_bytes(cfg.noc_network);

    // Every application's data: the [[app]] tables, or the one workload of [run].
    const auto& registry = workloads::workload_registry();
    auto data = [&](const sim::PolicySpec& workload, uint32_t size) {
        if (!size) size = registry.default_size(workload);
        registry.check_size(workload.name, size);
        return registry.bytes(workload, size);
    };
    if (cfg.apps.empty()) e.workload = data(cfg.run.workload, cfg.run.size);
    for (const AppConfig& app : cfg.apps) e.workload += data(app.workload, app.size);
    return e;
}

uint64_t memory_limit_bytes(const RunConfig& cfg) {
    if (cfg.run.max_memory_gb > 0) return static_cast<uint64_t>(cfg.run.max_memory_gb * 1e9);
    return default_memory_limit_bytes();
}

void check_memory(const RunConfig& cfg, sim::ConfigDoc& doc) {
    const MemoryEstimate e = estimate_memory(cfg);
    const uint64_t limit = memory_limit_bytes(cfg);
    if (limit == 0 || e.total() <= limit) return;
    const std::string whose =
        cfg.run.max_memory_gb > 0 ? "" : fmt::format(" (the default: half of this machine's {})", human_bytes(2 * limit));
    doc.section("run").fail(
        "max_memory_gb",
        fmt::format("this run would need about {} of memory ({}), more than the limit of {}{}; lower the sizes, or "
                    "raise run.max_memory_gb if the machine has the memory",
                    human_bytes(e.total()), e.breakdown(), human_bytes(limit), whose));
}

}  // namespace stacksim::top
