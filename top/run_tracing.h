// SPDX-License-Identifier: Apache-2.0
// The opt-in observers of a run: timeline, watch log, sampled series (CSV), VCD waveform.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/stats.h"
#include "top/run_command.h"
#include "top/sample_csv.h"
#include "top/sm_observers.h"
#include "top/stat_sampler.h"
#include "top/timeline_observer.h"
#include "top/trace_export.h"
#include "top/vcd_trace.h"

namespace stacksim::top {

class GpuSystem;

/// Builds what `options` asks for and attaches it to `gpu`; builds nothing (so costs nothing)
/// when no tracing option is given. The sampler exists only for a timeline, --samples or --vcd.
class RunTracing {
public:
    /// Throws InputError naming a bad option value.
    RunTracing(const RunOptions& options, GpuSystem& gpu, const sim::StatRegistry& stats);
    /// Runs the simulation (sc_start()), in sampling steps when something samples.
    void run();
    /// After the run: last sample, then every file completed and renamed into place.
    void finish(uint64_t end_cycle);
    /// The watch log's text ("" without --watch).
    std::string watch_text() const { return m_watch ? m_watch->text() : std::string(); }
    /// With RunOptions::export_trace: writes the recorded trace into `out` (TraceExporter::write).
    std::string write_trace(sim::StagedDirectory& out) const { return m_export->write(out); }

private:
    GpuSystem& m_gpu;
    ObserverFanout m_observers;
    std::unique_ptr<StatSampler> m_sampler;
    std::unique_ptr<TimelineObserver> m_timeline;
    std::unique_ptr<WatchLog> m_watch;
    std::unique_ptr<SampleCsv> m_csv;
    std::unique_ptr<VcdTrace> m_vcd;
    std::unique_ptr<TraceExporter> m_export;
};

}  // namespace stacksim::top
