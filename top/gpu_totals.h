// SPDX-License-Identifier: Apache-2.0
// GPU-wide totals over the per-instance statistics: SIMT efficiency, L1/L2 hit rates, DRAM bandwidth.
#pragma once
#include <string>
#include <vector>

#include "sim/stats.h"

namespace stacksim::top {

/// Sums of one statistic over every instance that registered it ("gpu.smN_l1.reads" of every
/// SM), read from the registry when asked, so the totals and the sampled time series come from
/// the same counters the per-instance stats show.
class GpuTotals {
public:
    /// Finds the instances in `stats` (call once every module has registered its stats).
    explicit GpuTotals(const sim::StatRegistry& stats);

    /// Registers the GPU-wide formulas: gpu.thread_instructions, gpu.simt_efficiency,
    /// gpu.l1.{reads,read_hits,hit_rate} (when the SMs have L1s), gpu.mem.l2.{reads,read_hits,hit_rate}
    /// and gpu.mem.dram.{bytes,bandwidth_gbps,peak_bandwidth_gbps,bandwidth_utilization} (memory
    /// hierarchy). `stats` must be the registry given to the constructor and outlive the totals' use.
    static void register_in(sim::StatRegistry& stats);
    /// One line for the printed summary: "SIMT efficiency 0.981, L1 hit rate 45.2% of 1024 reads, ...".
    std::string summary_line() const;

    double warp_instructions() const { return sum(m_warp_insts); }
    double thread_instructions() const { return sum(m_thread_insts); }
    double l1_reads() const { return sum(m_l1_reads); }
    double l1_read_hits() const { return sum(m_l1_hits); }
    double l2_reads() const { return sum(m_l2_reads); }
    double l2_read_hits() const { return sum(m_l2_hits); }
    /// Data bytes served by the DRAM channels (or the simple memory).
    double memory_bytes() const { return sum(m_mem_bytes); }
    /// Sum of the channels' average bandwidths over the run, GB/s (the simple memory's alone).
    double memory_bandwidth_gbps() const { return sum(m_mem_bw); }
    /// Sum of the DRAM channels' peak bandwidths, GB/s; 0 without DRAM channels.
    double dram_peak_gbps() const { return sum(m_dram_peak); }
    bool has_l1() const { return !m_l1_reads.empty(); }
    bool has_l2() const { return !m_l2_reads.empty(); }
    bool has_dram() const { return !m_dram_peak.empty(); }

private:
    double sum(const std::vector<std::string>& names) const;

    const sim::StatRegistry& m_stats;
    std::vector<std::string> m_warp_insts, m_thread_insts, m_l1_reads, m_l1_hits, m_l2_reads, m_l2_hits;
    std::vector<std::string> m_mem_bytes, m_mem_bw, m_dram_peak;
};

}  // namespace stacksim::top
