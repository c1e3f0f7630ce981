// SPDX-License-Identifier: Apache-2.0
// A Chrome/Perfetto timeline of kernels, CTAs, warps and sampled counters, streamed to its file.
#include "top/timeline_observer.h"

#include <fmt/format.h>
#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

#include "core/instruction.h"
#include "top/sm_observers.h"

namespace stacksim::top {

namespace {

std::string quoted(const std::string& s) { return nlohmann::json(s).dump(); }

/// CTA rows sit below the warp rows of their SM.
constexpr uint32_t kCtaRowBase = 1000;
/// The row of the preemption requests in the "GPU" process (the applications' rows are 0, 1, ...).
constexpr uint32_t kPreemptionRow = 999;

std::string kernel_args(const core::SmEvent& e) {
    return fmt::format(R"({{"kernel":{}}})", quoted(e.kernel ? e.kernel : ""));
}

}  // namespace

TimelineObserver::TimelineObserver(const std::string& path, std::set<uint32_t> detailed_sms, Filter filter)
    : m_file(path, "--timeline " + path), m_sms(std::move(detailed_sms)), m_filter(std::move(filter)) {
    m_file.out() << "{\"traceEvents\":[\n";
}

void TimelineObserver::write(const std::string& event_json) {
    if (!m_first) m_file.out() << ",\n";
    m_first = false;
    m_file.out() << event_json;
}

void TimelineObserver::complete(const std::string& name, const char* cat, uint64_t start, uint64_t end, uint32_t pid,
                                uint32_t tid, const std::string& args_json) {
    // Clipped to the window; an interval wholly outside it is not written.
    if (end <= start) end = start + 1;
    if (end <= m_filter.from || start >= m_filter.to) return;
    start = std::max(start, m_filter.from);
    end = std::min(end, m_filter.to);
    write(fmt::format(R"({{"name":{},"cat":"{}","ph":"X","ts":{},"dur":{},"pid":{},"tid":{}{}}})", quoted(name), cat,
                      start, end > start ? end - start : 1, pid, tid,
                      args_json.empty() ? "" : ",\"args\":" + args_json));
}

void TimelineObserver::close_stall(uint32_t sm, uint32_t warp, uint64_t cycle) {
    auto it = m_stall_open.find({sm, warp});
    if (it == m_stall_open.end()) return;
    if (cycle > it->second.first)
        complete(stall_reason_text(it->second.second), "stall", it->second.first, cycle, sm + 1, warp);
    m_stall_open.erase(it);
}

void TimelineObserver::on_event(const core::SmEvent& e) {
    const uint32_t pid = e.sm + 1;
    if (!kernel_kept(e.kernel)) {
        // Another kernel's event: an interval of a kept kernel's warp in this slot ends here.
        if (e.kind == core::SmEventKind::Issue || e.kind == core::SmEventKind::Stall ||
            e.kind == core::SmEventKind::WarpExit)
            close_stall(e.sm, e.warp, e.cycle);
        if (e.kind == core::SmEventKind::CtaStart) m_cta_open.erase({e.sm, e.warp});
        return;
    }
    m_seen_sms.insert(e.sm);
    switch (e.kind) {
    case core::SmEventKind::CtaStart:
        m_cta_open[{e.sm, e.warp}] = {e.cycle, e.cta};
        m_seen_cta_slots.insert({e.sm, e.warp});
        break;
    case core::SmEventKind::CtaEnd: {
        auto it = m_cta_open.find({e.sm, e.warp});
        if (it != m_cta_open.end()) {
            // Named by kernel so that per-SM occupancy by kernel reads off the CTA rows.
            complete(fmt::format("{} CTA {}", e.kernel ? e.kernel : "", it->second.second), "cta", it->second.first,
                     e.cycle, pid, kCtaRowBase + e.warp, kernel_args(e));
            m_cta_open.erase(it);
        }
        break;
    }
    case core::SmEventKind::CtaSaved:
    case core::SmEventKind::CtaRestored:
    case core::SmEventKind::CtaFlushed: {
        const char* what = e.kind == core::SmEventKind::CtaSaved      ? "save"
                           : e.kind == core::SmEventKind::CtaRestored ? "restore"
                                                                      : "flush";
        complete(fmt::format("{} {} CTA {}", what, e.kernel ? e.kernel : "", e.cta), "preemption", e.since, e.cycle,
                 pid, kCtaRowBase + e.warp, kernel_args(e));
        break;
    }
    case core::SmEventKind::Issue:
        m_seen_warps.insert({e.sm, e.warp});
        close_stall(e.sm, e.warp, e.cycle);
        complete(e.inst ? e.inst->name() : "issue", "issue", e.cycle, e.cycle + 1, pid, e.warp,
                 fmt::format(R"({{"pc":{},"mask":"{:08x}","cta":{},"simt_stack_depth":{},"instruction":{}{}}})", e.pc,
                             e.mask, e.cta, e.depth, quoted(e.inst ? e.inst->text : ""),
                             e.source_line().empty() ? "" : ",\"source\":" + quoted(e.source_line())));
        break;
    case core::SmEventKind::Stall:
        m_seen_warps.insert({e.sm, e.warp});
        close_stall(e.sm, e.warp, e.cycle);
        m_stall_open[{e.sm, e.warp}] = {e.cycle, e.reason};
        break;
    case core::SmEventKind::WarpExit: close_stall(e.sm, e.warp, e.cycle); break;
    default: break;
    }
}

void TimelineObserver::attach(StatSampler& sampler) {
    const auto& series = sampler.series();
    sampler.add_sink([this, &series](uint64_t cycle, const std::vector<double>& values) {
        for (size_t i = 0; i < values.size(); ++i)
            if (series[i].counter_track && std::isfinite(values[i]) && cycle >= m_filter.from && cycle < m_filter.to)
                write(fmt::format(R"({{"name":{},"ph":"C","ts":{},"pid":0,"tid":0,"args":{{"value":{}}}}})",
                                  quoted(series[i].unit.empty() ? series[i].name
                                                                : series[i].name + " (" + series[i].unit + ")"),
                                  cycle, values[i]));
    });
}

void TimelineObserver::finish(const std::vector<host::KernelRecord>& kernels, uint64_t end_cycle,
                              const std::vector<sched::PreemptionController::Record>& preemptions) {
    for (auto it = m_stall_open.begin(); it != m_stall_open.end();) {
        auto key = it->first;
        ++it;
        close_stall(key.first, key.second, end_cycle);
    }
    auto meta = [&](const char* what, uint32_t pid, uint32_t tid, const std::string& name) {
        write(fmt::format(R"({{"name":"{}","ph":"M","pid":{},"tid":{},"args":{{"name":{}}}}})", what, pid, tid,
                          quoted(name)));
    };
    meta("process_name", 0, 0, "GPU");
    for (uint32_t sm : m_seen_sms) meta("process_name", sm + 1, 0, fmt::format("SM {}", sm));
    for (auto& [sm, warp] : m_seen_warps) meta("thread_name", sm + 1, warp, fmt::format("warp slot {}", warp));
    for (auto& [sm, slot] : m_seen_cta_slots)
        meta("thread_name", sm + 1, kCtaRowBase + slot, fmt::format("CTA slot {}", slot));
    // One row per application: its kernels, each preceded by its launch latency (call -> start).
    std::set<uint32_t> apps;
    for (auto& k : kernels)
        if (kernel_kept(k.name.c_str())) apps.insert(k.app);
    for (uint32_t a : apps) meta("thread_name", 0, a, fmt::format("app {} kernels", a));
    for (auto& k : kernels) {
        if (!kernel_kept(k.name.c_str())) continue;
        if (k.start_cycle > k.call_cycle)
            complete("launch " + k.name, "launch", k.call_cycle, k.start_cycle, 0, k.app);
        complete(k.name, "kernel", k.start_cycle, k.end_cycle, 0, k.app,
                 fmt::format(R"({{"ctas":{},"warp_instructions":{},"priority":{}}})", k.ctas, k.warp_instructions,
                             k.priority));
    }
    // A kernel name that matched nothing is said, not left as an empty timeline.
    for (const auto& want : m_filter.kernels) {
        std::string ran;
        bool found = false;
        for (auto& k : kernels) {
            found = found || k.name == want;
            if (ran.find(k.name) == std::string::npos) ran += (ran.empty() ? "" : ", ") + k.name;
        }
        if (!found)
            fmt::print(stderr, "stacksim: note: --timeline-kernel {}: no kernel of that name ran (kernels: {})\n",
                       want, ran);
    }
    bool any_preemption = false;
    for (auto& r : preemptions) {
        if (!kernel_kept(r.kernel.c_str())) continue;
        if (!any_preemption) meta("thread_name", 0, kPreemptionRow, "preemption requests");
        any_preemption = true;
        complete("preempt for " + r.kernel, "preemption", r.request_cycle,
                 r.done && r.done_cycle > r.request_cycle ? r.done_cycle : r.request_cycle + 1, 0, kPreemptionRow,
                 fmt::format(R"({{"sms":{},"drained":{},"switched":{},"flushed":{}}})", r.sms, r.drained, r.switched,
                             r.flushed));
    }
    m_file.out() << "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"time_unit\":\"core cycles (shown as "
                    "microseconds)\",\"generator\":\"stacksim\"}}\n";
    m_file.commit();
}

}  // namespace stacksim::top
