// SPDX-License-Identifier: Apache-2.0
// A Chrome/Perfetto timeline of kernels, CTAs, warps and sampled counters, streamed to its file.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/sm_observer.h"
#include "host/kernel_record.h"
#include "sched/preemption_controller.h"
#include "sim/streamed_file.h"
#include "top/stat_sampler.h"

namespace stacksim::top {

/// What a timeline keeps (--timeline-window, --timeline-kernel): intervals are clipped to
/// [from, to) core cycles, instants outside it dropped; with `kernels` non-empty, only the CTAs,
/// warps' events, kernel rows and preemption requests of those kernels are written.
struct TimelineFilter {
    uint64_t from = 0;
    uint64_t to = ~uint64_t{0};
    std::set<std::string> kernels;
};

/// Writes CTA lifetimes on every SM and, on the selected SMs, each warp's issued instructions
/// and stall intervals as Chrome trace JSON (opens in Perfetto and chrome://tracing), plus one
/// counter track per sampled series. Events go to the file as they complete, so memory stays
/// bounded however long the run; the file is written as FILE.part and renamed into place by
/// finish(). Timestamps are core cycles (shown as microseconds by the viewers).
class TimelineObserver : public core::SmObserver {
public:
    using Filter = TimelineFilter;
    /// Throws InputError naming `path` when it cannot be written.
    TimelineObserver(const std::string& path, std::set<uint32_t> detailed_sms, Filter filter = Filter());
    bool watches(uint32_t sm, uint32_t) const override { return m_sms.count(sm) != 0; }
    void on_event(const core::SmEvent& e) override;
    /// Draws `sampler`'s series as counter tracks of the "GPU" process.
    void attach(StatSampler& sampler);
    /// Closes the open stall intervals at `end_cycle`, adds one row per application with its
    /// kernels of `kernels` (and their launch latencies), a row of the preemption requests
    /// (request to all chosen SMs free), the row names, and renames the file into place.
    void finish(const std::vector<host::KernelRecord>& kernels, uint64_t end_cycle,
                const std::vector<sched::PreemptionController::Record>& preemptions);

private:
    void close_stall(uint32_t sm, uint32_t warp, uint64_t cycle);
    void complete(const std::string& name, const char* cat, uint64_t start, uint64_t end, uint32_t pid,
                  uint32_t tid, const std::string& args_json = "");
    void write(const std::string& event_json);
    bool kernel_kept(const char* kernel) const {
        return m_filter.kernels.empty() || (kernel && m_filter.kernels.count(kernel));
    }

    sim::StreamedFile m_file;
    bool m_first = true;
    std::set<uint32_t> m_sms;
    Filter m_filter;
    std::map<std::pair<uint32_t, uint32_t>, std::pair<uint64_t, uint64_t>> m_cta_open;  ///< (sm, slot) -> (start, cta)
    std::map<std::pair<uint32_t, uint32_t>, std::pair<uint64_t, uint8_t>> m_stall_open;  ///< (sm, warp) -> (start, reason)
    std::set<uint32_t> m_seen_sms;
    std::set<std::pair<uint32_t, uint32_t>> m_seen_warps, m_seen_cta_slots;
};

}  // namespace stacksim::top
