// SPDX-License-Identifier: Apache-2.0
// Observers of SM events: a Chrome/Perfetto timeline and a readable per-warp watch log.
#include "top/sm_observers.h"

#include <fmt/format.h>

#include "core/instruction.h"
#include "core/sm.h"
#include "sim/error.h"

namespace stacksim::top {

namespace {
std::string reason_text(uint8_t r) {
    // A watched warp that could have issued but another warp of its scheduler was chosen.
    if (r == static_cast<uint8_t>(core::IssueOutcome::Issued)) return "ready, another warp selected";
    std::string n = core::outcome_name(static_cast<core::IssueOutcome>(r));
    if (n.rfind("stall_", 0) == 0) n = n.substr(6);
    for (char& c : n)
        if (c == '_') c = ' ';
    return n;
}
}  // namespace

void TimelineObserver::complete(const std::string& name, const char* cat, uint64_t start, uint64_t end,
                                uint32_t pid, uint32_t tid, nlohmann::json args) {
    nlohmann::json e = {{"name", name}, {"cat", cat}, {"ph", "X"}, {"ts", start},
                        {"dur", end > start ? end - start : 1}, {"pid", pid}, {"tid", tid}};
    if (!args.is_null()) e["args"] = std::move(args);
    m_events.push_back(std::move(e));
}

void TimelineObserver::close_stall(uint32_t sm, uint32_t warp, uint64_t cycle) {
    auto it = m_stall_open.find({sm, warp});
    if (it == m_stall_open.end()) return;
    if (cycle > it->second.first)
        complete(reason_text(it->second.second), "stall", it->second.first, cycle, sm + 1, warp);
    m_stall_open.erase(it);
}

void TimelineObserver::on_event(const core::SmEvent& e) {
    const uint32_t pid = e.sm + 1;
    m_seen_sms.insert(e.sm);
    switch (e.kind) {
    case core::SmEventKind::CtaStart:
        m_cta_open[{e.sm, e.warp}] = {e.cycle, e.cta};
        m_cta_slots.insert({e.sm, e.warp});
        break;
    case core::SmEventKind::CtaEnd: {
        auto it = m_cta_open.find({e.sm, e.warp});
        if (it != m_cta_open.end()) {
            // Named by kernel so that per-SM occupancy by kernel reads off the CTA rows.
            complete(fmt::format("{} CTA {}", e.kernel ? e.kernel : "", it->second.second), "cta", it->second.first,
                     e.cycle, pid, 1000 + e.warp, {{"kernel", e.kernel ? e.kernel : ""}});
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
                 pid, 1000 + e.warp, {{"kernel", e.kernel ? e.kernel : ""}});
        break;
    }
    case core::SmEventKind::Issue:
        m_seen_warps.insert({e.sm, e.warp});
        close_stall(e.sm, e.warp, e.cycle);
        complete(e.inst ? e.inst->name() : "issue", "issue", e.cycle, e.cycle + 1, pid, e.warp,
                 {{"pc", e.pc}, {"mask", fmt::format("{:08x}", e.mask)}, {"cta", e.cta},
                  {"instruction", e.inst ? e.inst->text : ""}});
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

nlohmann::json TimelineObserver::to_json(const std::vector<host::KernelRecord>& kernels, uint64_t end_cycle,
                                         const std::vector<sched::PreemptionController::Record>& preemptions) {
    for (auto it = m_stall_open.begin(); it != m_stall_open.end();) {
        auto key = it->first;
        ++it;
        close_stall(key.first, key.second, end_cycle);
    }
    nlohmann::json events = nlohmann::json::array();
    auto meta = [&](const char* what, uint32_t pid, uint32_t tid, const std::string& name) {
        events.push_back({{"name", what}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", name}}}});
    };
    meta("process_name", 0, 0, "GPU");
    for (uint32_t sm : m_seen_sms) meta("process_name", sm + 1, 0, fmt::format("SM {}", sm));
    for (auto& [sm, warp] : m_seen_warps) meta("thread_name", sm + 1, warp, fmt::format("warp slot {}", warp));
    for (auto& [sm, slot] : m_cta_slots) meta("thread_name", sm + 1, 1000 + slot, fmt::format("CTA slot {}", slot));
    // One row per application: its kernels, each preceded by its launch latency (call -> start).
    std::set<uint32_t> apps;
    for (auto& k : kernels) apps.insert(k.app);
    for (uint32_t a : apps) meta("thread_name", 0, a, fmt::format("app {} kernels", a));
    for (auto& k : kernels) {
        if (k.start_cycle > k.call_cycle)
            events.push_back({{"name", "launch " + k.name}, {"cat", "launch"}, {"ph", "X"}, {"ts", k.call_cycle},
                              {"dur", k.start_cycle - k.call_cycle}, {"pid", 0}, {"tid", k.app}});
        events.push_back({{"name", k.name}, {"cat", "kernel"}, {"ph", "X"}, {"ts", k.start_cycle},
                          {"dur", k.end_cycle > k.start_cycle ? k.end_cycle - k.start_cycle : 1}, {"pid", 0},
                          {"tid", k.app}, {"args", {{"ctas", k.ctas}, {"warp_instructions", k.warp_instructions},
                                                    {"priority", k.priority}}}});
    }
    if (!preemptions.empty()) meta("thread_name", 0, 999, "preemption requests");
    for (auto& r : preemptions)
        events.push_back({{"name", "preempt for " + r.kernel}, {"cat", "preemption"}, {"ph", "X"},
                          {"ts", r.request_cycle},
                          {"dur", r.done && r.done_cycle > r.request_cycle ? r.done_cycle - r.request_cycle : 1},
                          {"pid", 0}, {"tid", 999},
                          {"args", {{"sms", r.sms}, {"drained", r.drained}, {"switched", r.switched},
                                    {"flushed", r.flushed}}}});
    for (auto& e : m_events) events.push_back(e);
    return {{"traceEvents", events}, {"displayTimeUnit", "ns"},
            {"otherData", {{"time_unit", "core cycles (shown as microseconds)"}, {"generator", "stacksim"}}}};
}

WatchLog::WatchLog(const std::vector<std::string>& specs) {
    for (const auto& s : specs) {
        unsigned sm = 0, warp = 0;
        char tail = 0;
        if (std::sscanf(s.c_str(), "sm%u.w%u%c", &sm, &warp, &tail) != 2)
            throw sim::InputError(fmt::format("--watch {}: expected smN.wM (SM N, warp slot M)", s));
        m_watch.insert({sm, warp});
    }
}

void WatchLog::on_event(const core::SmEvent& e) {
    std::string what;
    switch (e.kind) {
    case core::SmEventKind::Fetch: what = fmt::format("fetch {} instruction(s) from pc {}", e.other, e.pc); break;
    case core::SmEventKind::Issue:
        what = fmt::format("issue pc {:<4} mask {:08x}  {}", e.pc, e.mask, e.inst ? e.inst->text : "");
        break;
    case core::SmEventKind::Stall: what = "stall: " + reason_text(e.reason); break;
    case core::SmEventKind::Diverge:
        what = fmt::format("diverge at pc {}: taken {:08x} -> pc {}, not taken {:08x} -> pc {}, reconverge at {}",
                           e.pc, e.mask, e.inst ? e.inst->target : 0, e.other, e.pc + 1,
                           e.reconv == core::kNoTarget ? std::string("exit") : fmt::format("pc {}", e.reconv));
        break;
    case core::SmEventKind::Reconverge: what = fmt::format("reconverge at pc {}, mask {:08x}", e.pc, e.mask); break;
    case core::SmEventKind::BarrierArrive: what = fmt::format("arrive at barrier (pc {})", e.pc); break;
    case core::SmEventKind::BarrierRelease: what = "barrier released"; break;
    case core::SmEventKind::WarpExit: what = "exit: every thread finished"; break;
    default: return;
    }
    m_text += fmt::format("[sm{}.w{} cycle {:>7} CTA {}] {}\n", e.sm, e.warp, e.cycle, e.cta, what);
}

bool ObserverFanout::watches(uint32_t sm, uint32_t warp) const {
    for (auto* o : m_list)
        if (o->watches(sm, warp)) return true;
    return false;
}

void ObserverFanout::on_event(const core::SmEvent& e) {
    for (auto* o : m_list) {
        bool per_warp = e.kind != core::SmEventKind::CtaStart && e.kind != core::SmEventKind::CtaEnd;
        if (!per_warp || o->watches(e.sm, e.warp)) o->on_event(e);
    }
}

}  // namespace stacksim::top
