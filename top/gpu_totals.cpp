// SPDX-License-Identifier: Apache-2.0
// GPU-wide totals over the per-instance statistics: SIMT efficiency, L1/L2 hit rates, DRAM bandwidth.
#include "top/gpu_totals.h"

#include <fmt/format.h>

#include <memory>
#include <string_view>

#include "core/exec_context.h"

namespace stacksim::top {

namespace {

// True when `name` is `prefix`, one or more decimal digits, then `suffix` ("gpu.sm12.reads").
bool numbered(std::string_view name, std::string_view prefix, std::string_view suffix) {
    if (name.size() <= prefix.size() + suffix.size()) return false;
    if (name.substr(0, prefix.size()) != prefix || name.substr(name.size() - suffix.size()) != suffix) return false;
    for (size_t i = prefix.size(); i < name.size() - suffix.size(); ++i)
        if (name[i] < '0' || name[i] > '9') return false;
    return true;
}

// The registry's names (in its order, so sums add in the same order every run) that `keep` accepts.
// A plain scan: a regex compiled and matched over every name cost a quarter of a short run.
template <class Keep>
std::vector<std::string> matching(const sim::StatRegistry& stats, Keep keep) {
    std::vector<std::string> out;
    for (const auto& n : stats.names())
        if (keep(std::string_view(n))) out.push_back(n);
    return out;
}

// Names "PREFIX<digits>SUFFIX".
auto instances(std::string_view prefix, std::string_view suffix) {
    return [prefix, suffix](std::string_view n) { return numbered(n, prefix, suffix); };
}

// The DRAM channels' "gpu.mem.dram_<N>.STAT" or the simple memory's "gpu.mem.memory.STAT".
auto memory_instances(std::string_view stat) {
    return [stat](std::string_view n) {
        constexpr std::string_view simple = "gpu.mem.memory.";
        if (n.size() == simple.size() + stat.size() && n.substr(0, simple.size()) == simple &&
            n.substr(simple.size()) == stat)
            return true;
        return n.size() > stat.size() + 1 && n[n.size() - stat.size() - 1] == '.' &&
               n.substr(n.size() - stat.size()) == stat &&
               numbered(n.substr(0, n.size() - stat.size() - 1), "gpu.mem.dram_", "");
    };
}

double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

}  // namespace

GpuTotals::GpuTotals(const sim::StatRegistry& stats)
    : m_stats(stats),
      m_warp_insts(matching(stats, instances("gpu.sm", ".warp_instructions"))),
      m_thread_insts(matching(stats, instances("gpu.sm", ".thread_instructions"))),
      m_l1_reads(matching(stats, instances("gpu.sm", "_l1.reads"))),
      m_l1_hits(matching(stats, instances("gpu.sm", "_l1.read_hits"))),
      m_l2_reads(matching(stats, instances("gpu.mem.l2_", ".reads"))),
      m_l2_hits(matching(stats, instances("gpu.mem.l2_", ".read_hits"))),
      m_mem_bytes(matching(stats, memory_instances("bytes"))),
      m_mem_bw(matching(stats, memory_instances("bandwidth_gbps"))),
      m_dram_peak(matching(stats, instances("gpu.mem.dram_", ".peak_bandwidth_gbps"))) {}

double GpuTotals::sum(const std::vector<std::string>& names) const {
    double s = 0;
    for (const auto& n : names) s += m_stats.value(n);
    return s;
}

void GpuTotals::register_in(sim::StatRegistry& stats) {
    auto t = std::make_shared<GpuTotals>(stats);
    sim::StatGroup g(stats, "gpu");
    g.add_formula("thread_instructions", [t] { return t->thread_instructions(); },
                  "thread instructions (SIMT-active lanes of each issued warp instruction), all SMs", "instructions");
    g.add_formula("simt_efficiency", [t] {
        return ratio(t->thread_instructions(), t->warp_instructions() * core::kWarpSize);
    }, "fraction of lanes active per issued warp instruction, all SMs", "ratio");
    if (t->has_l1()) {
        g.add_formula("l1.reads", [t] { return t->l1_reads(); }, "L1 data cache read requests, all SMs", "requests");
        g.add_formula("l1.read_hits", [t] { return t->l1_read_hits(); }, "L1 read hits, all SMs", "requests");
        g.add_formula("l1.hit_rate", [t] { return ratio(t->l1_read_hits(), t->l1_reads()); },
                      "L1 read hits / reads, all SMs", "ratio");
    }
    if (t->has_l2()) {
        g.add_formula("mem.l2.reads", [t] { return t->l2_reads(); }, "L2 read requests, all slices", "requests");
        g.add_formula("mem.l2.read_hits", [t] { return t->l2_read_hits(); }, "L2 read hits, all slices", "requests");
        g.add_formula("mem.l2.hit_rate", [t] { return ratio(t->l2_read_hits(), t->l2_reads()); },
                      "L2 read hits / reads, all slices", "ratio");
    }
    if (t->has_dram()) {
        g.add_formula("mem.dram.bytes", [t] { return t->memory_bytes(); }, "data bytes served, all DRAM channels",
                      "bytes");
        g.add_formula("mem.dram.bandwidth_gbps", [t] { return t->memory_bandwidth_gbps(); },
                      "data bandwidth of all DRAM channels, averaged over the run", "GB/s");
        g.add_formula("mem.dram.peak_bandwidth_gbps", [t] { return t->dram_peak_gbps(); },
                      "peak data bandwidth of all DRAM channels", "GB/s");
        g.add_formula("mem.dram.bandwidth_utilization", [t] {
            return ratio(t->memory_bandwidth_gbps(), t->dram_peak_gbps());
        }, "bandwidth_gbps / peak_bandwidth_gbps", "ratio");
    }
}

std::string GpuTotals::summary_line() const {
    std::string s = fmt::format("SIMT efficiency {:.3f}", ratio(thread_instructions(), warp_instructions() * core::kWarpSize));
    if (has_l1())
        s += fmt::format(", L1 hit rate {:.1f}% of {:.0f} reads", 100 * ratio(l1_read_hits(), l1_reads()), l1_reads());
    if (has_l2())
        s += fmt::format(", L2 hit rate {:.1f}% of {:.0f} reads", 100 * ratio(l2_read_hits(), l2_reads()), l2_reads());
    if (has_dram())
        s += fmt::format(", DRAM {:.2f} GB/s ({:.1f}% of {:.0f} GB/s)", memory_bandwidth_gbps(),
                         100 * ratio(memory_bandwidth_gbps(), dram_peak_gbps()), dram_peak_gbps());
    else if (!m_mem_bw.empty())
        s += fmt::format(", memory {:.2f} GB/s", memory_bandwidth_gbps());
    return s;
}

}  // namespace stacksim::top
