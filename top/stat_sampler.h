// SPDX-License-Identifier: Apache-2.0
// Opt-in sampling of GPU-wide rates every N core cycles, for timeline counters, CSV and VCD.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/clock_domain.h"
#include "sim/stats.h"
#include "top/gpu_totals.h"

namespace stacksim::top {

class GpuSystem;

/// One sampled quantity.
struct SampledSeries {
    std::string name;  ///< "ipc", "l2_hit_rate", a stat name, "router5_flits"
    std::string unit;
    bool counter_track = true;  ///< shown as a timeline counter track
};

/// Samples series of the GPU every `interval` core cycles. run() runs the simulation in steps
/// of `interval` cycles (sc_start(step)) and samples between them: no process, no event and no
/// check runs inside the simulation, so a sampled run is the same run, event for event, as an
/// unsampled one (an extra timed event would reorder SystemC's simultaneous events), and
/// nothing at all costs when no sampler is built. Rates cover the interval since the previous
/// sample; a ratio without data in the interval (a hit rate with no reads) is NaN. Each sample
/// goes to every sink.
class StatSampler {
public:
    /// Receives one sample: the cycle it ends at and one value per series().
    using Sink = std::function<void(uint64_t cycle, const std::vector<double>& values)>;

    /// The built-in series (ipc, l1_hit_rate, l2_hit_rate, dram_gbps or memory_gbps,
    /// faults_in_flight; those the system has) and the raw values of `extra_stats` (stat names;
    /// InputError naming an unknown one). `interval` in core cycles, at least 1.
    StatSampler(GpuSystem& gpu, const sim::StatRegistry& stats, uint64_t interval,
                const std::vector<std::string>& extra_stats);

    /// A series whose value is `level()` at each sample (buffer occupancy, say).
    void add_level(SampledSeries s, std::function<double()> level);
    void add_sink(Sink s) { m_sinks.push_back(std::move(s)); }
    const std::vector<SampledSeries>& series() const { return m_series; }
    uint64_t interval() const { return m_interval; }
    /// Takes the last, partial sample at `cycle` (the end of the run) unless one was taken there.
    void finish(uint64_t cycle);
    /// Runs the simulation to its end (sc_stop() or no more events), sampling every interval.
    void run();

private:
    enum class Kind : uint8_t { PerCycle, PerNanosecond, Ratio, Level };
    struct Probe {
        Kind kind;
        std::function<double()> num, den;
        double last_num = 0, last_den = 0;
    };
    void add(SampledSeries s, Kind kind, std::function<double()> num, std::function<double()> den = {});
    void take(uint64_t cycle);

    GpuTotals m_totals;
    uint64_t m_interval;
    sim::ClockDomain& m_clock;
    std::vector<SampledSeries> m_series;
    std::vector<Probe> m_probes;
    std::vector<Sink> m_sinks;
    std::vector<double> m_values;
    uint64_t m_last_cycle = 0;
};

}  // namespace stacksim::top
