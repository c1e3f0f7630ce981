// SPDX-License-Identifier: Apache-2.0
// Opt-in sampling of GPU-wide rates every N core cycles, for timeline counters, CSV and VCD.
#include "top/stat_sampler.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "sim/error.h"
#include "top/gpu_system.h"

namespace stacksim::top {

StatSampler::StatSampler(GpuSystem& gpu, const sim::StatRegistry& stats, uint64_t interval,
                         const std::vector<std::string>& extra_stats)
    : m_totals(stats), m_interval(interval ? interval : 1), m_clock(gpu.core_clock()) {
    const GpuTotals* t = &m_totals;
    add({"ipc", "instructions/cycle"}, Kind::PerCycle, [t] { return t->warp_instructions(); });
    if (t->has_l1())
        add({"l1_hit_rate", "ratio"}, Kind::Ratio, [t] { return t->l1_read_hits(); }, [t] { return t->l1_reads(); });
    if (t->has_l2())
        add({"l2_hit_rate", "ratio"}, Kind::Ratio, [t] { return t->l2_read_hits(); }, [t] { return t->l2_reads(); });
    add({t->has_dram() ? "dram_gbps" : "memory_gbps", "GB/s"}, Kind::PerNanosecond, [t] { return t->memory_bytes(); });
    if (const memory::Gmmu* g = gpu.gmmu())
        add_level({"faults_in_flight", "faults"}, [g] { return static_cast<double>(g->faults_in_flight()); });
    for (const auto& n : extra_stats) {
        if (!stats.contains(n))
            throw sim::InputError(fmt::format("--sample-stat {}: no such statistic (the names are those of "
                                              "stats.json)", n));
        add_level({n, ""}, [&stats, n] { return stats.value(n); });
    }
}

void StatSampler::add(SampledSeries s, Kind kind, std::function<double()> num, std::function<double()> den) {
    m_series.push_back(std::move(s));
    m_probes.push_back(Probe{kind, std::move(num), std::move(den)});
}

void StatSampler::add_level(SampledSeries s, std::function<double()> level) {
    add(std::move(s), Kind::Level, std::move(level));
}

void StatSampler::run() {
    const sc_core::sc_time step = m_clock.period() * static_cast<double>(m_interval);
    do {
        sc_core::sc_start(step);
        if (sc_core::sc_get_status() != sc_core::SC_STOPPED) take(m_clock.cycle());
    } while (sc_core::sc_get_status() != sc_core::SC_STOPPED && sc_core::sc_pending_activity());
}

void StatSampler::finish(uint64_t cycle) {
    if (cycle > m_last_cycle) take(cycle);
}

void StatSampler::take(uint64_t cycle) {
    const double dc = static_cast<double>(cycle - m_last_cycle);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    m_values.resize(m_probes.size());
    for (size_t i = 0; i < m_probes.size(); ++i) {
        Probe& p = m_probes[i];
        const double num = p.num();
        const double den = p.den ? p.den() : 0.0;
        switch (p.kind) {
        case Kind::PerCycle: m_values[i] = dc > 0 ? (num - p.last_num) / dc : nan; break;
        case Kind::PerNanosecond:
            m_values[i] = dc > 0 ? (num - p.last_num) / (dc * static_cast<double>(m_clock.period_ps()) * 1e-3) : nan;
            break;
        case Kind::Ratio: m_values[i] = den > p.last_den ? (num - p.last_num) / (den - p.last_den) : nan; break;
        case Kind::Level: m_values[i] = num; break;
        }
        p.last_num = num;
        p.last_den = den;
    }
    m_last_cycle = cycle;
    for (auto& s : m_sinks) s(cycle, m_values);
}

}  // namespace stacksim::top
