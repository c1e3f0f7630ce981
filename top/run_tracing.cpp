// SPDX-License-Identifier: Apache-2.0
// The opt-in observers of a run: timeline, watch log, sampled series (CSV), VCD waveform.
#include "top/run_tracing.h"

#include <set>

#include "core/exec_context.h"
#include "top/gpu_system.h"

namespace stacksim::top {

RunTracing::RunTracing(const RunOptions& o, GpuSystem& gpu, const sim::StatRegistry& stats) : m_gpu(gpu) {
    if (!o.timeline_file.empty() || !o.samples_file.empty() || !o.vcd_file.empty())
        m_sampler = std::make_unique<StatSampler>(gpu, stats, o.sample_every, o.sample_stats);
    if (!o.timeline_file.empty()) {
        TimelineObserver::Filter filter;
        filter.from = o.timeline_from;
        filter.to = o.timeline_to;
        filter.kernels.insert(o.timeline_kernels.begin(), o.timeline_kernels.end());
        m_timeline = std::make_unique<TimelineObserver>(
            o.timeline_file, std::set<uint32_t>(o.timeline_sms.begin(), o.timeline_sms.end()), std::move(filter));
        m_timeline->attach(*m_sampler);
        m_observers.add(m_timeline.get());
    }
    if (!o.watch.empty()) {
        m_watch = std::make_unique<WatchLog>(o.watch, gpu.config().gpu.num_sms,
                                             gpu.config().sm.max_threads / core::kWarpSize);
        m_observers.add(m_watch.get());
    }
    if (!o.vcd_file.empty()) {
        m_vcd = std::make_unique<VcdTrace>(o.vcd_file, o.vcd_signals, gpu.config().sm.max_threads / core::kWarpSize,
                                           gpu, *m_sampler);
        m_observers.add(m_vcd.get());
    }
    if (!o.samples_file.empty()) m_csv = std::make_unique<SampleCsv>(o.samples_file, *m_sampler);
    if (o.export_trace) {
        m_export = std::make_unique<TraceExporter>();
        m_observers.add(m_export.get());
    }
    if (!m_observers.empty()) gpu.set_observer(&m_observers);
}

void RunTracing::run() {
    if (m_sampler)
        m_sampler->run();
    else
        sc_core::sc_start();
}

void RunTracing::finish(uint64_t end_cycle) {
    if (m_sampler) m_sampler->finish(end_cycle);
    if (m_timeline) m_timeline->finish(m_gpu.device().kernels(), end_cycle, m_gpu.preemption().records());
    if (m_vcd) m_vcd->finish(end_cycle);
    if (m_csv) m_csv->finish();
}

}  // namespace stacksim::top
