// SPDX-License-Identifier: Apache-2.0
// GPU-wide totals over the per-instance statistics: SIMT efficiency, L1/L2 hit rates, DRAM bandwidth.
#include "top/gpu_totals.h"

#include <fmt/format.h>

#include <memory>
#include <regex>

#include "core/exec_context.h"

namespace stacksim::top {

namespace {

std::vector<std::string> matching(const sim::StatRegistry& stats, const char* pattern) {
    const std::regex re(pattern);
    std::vector<std::string> out;
    for (const auto& n : stats.names())
        if (std::regex_match(n, re)) out.push_back(n);
    return out;
}

double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

}  // namespace

GpuTotals::GpuTotals(const sim::StatRegistry& stats)
    : m_stats(stats),
      m_warp_insts(matching(stats, R"(gpu\.sm\d+\.warp_instructions)")),
      m_thread_insts(matching(stats, R"(gpu\.sm\d+\.thread_instructions)")),
      m_l1_reads(matching(stats, R"(gpu\.sm\d+_l1\.reads)")),
      m_l1_hits(matching(stats, R"(gpu\.sm\d+_l1\.read_hits)")),
      m_l2_reads(matching(stats, R"(gpu\.mem\.l2_\d+\.reads)")),
      m_l2_hits(matching(stats, R"(gpu\.mem\.l2_\d+\.read_hits)")),
      m_mem_bytes(matching(stats, R"(gpu\.mem\.(dram_\d+|memory)\.bytes)")),
      m_mem_bw(matching(stats, R"(gpu\.mem\.(dram_\d+|memory)\.bandwidth_gbps)")),
      m_dram_peak(matching(stats, R"(gpu\.mem\.dram_\d+\.peak_bandwidth_gbps)")) {}

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
