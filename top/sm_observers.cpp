// SPDX-License-Identifier: Apache-2.0
// Observers of SM events: a readable per-warp watch log, and a fan-out to several observers.
#include "top/sm_observers.h"

#include <fmt/format.h>

#include "core/instruction.h"
#include "core/sm.h"
#include "sim/error.h"

namespace stacksim::top {

std::string stall_reason_text(uint8_t r) {
    // A watched warp that could have issued but another warp of its scheduler was chosen.
    if (r == static_cast<uint8_t>(core::IssueOutcome::Issued)) return "ready, another warp selected";
    // Ready but outside a two-level scheduler's active set: waiting to be promoted.
    if (r == core::kStallPending) return "pending (ready, not in the active set)";
    std::string n = core::outcome_name(static_cast<core::IssueOutcome>(r));
    if (n.rfind("stall_", 0) == 0) n = n.substr(6);
    for (char& c : n)
        if (c == '_') c = ' ';
    return n;
}

WatchLog::WatchLog(const std::vector<std::string>& specs, uint32_t num_sms, uint32_t warp_slots) {
    for (const auto& s : specs) {
        unsigned sm = 0, warp = 0;
        char tail = 0;
        if (s.size() > 24 || s.find_first_of("+- ") != std::string::npos ||
            std::sscanf(s.c_str(), "sm%u.w%u%c", &sm, &warp, &tail) != 2)
            throw sim::InputError(fmt::format("--watch {}: expected smN.wM (SM N, warp slot M)", s));
        if (sm >= num_sms || warp >= warp_slots)
            throw sim::InputError(fmt::format("--watch {}: no such warp slot: the GPU has SMs sm0..sm{} with warp "
                                              "slots w0..w{} (gpu.num_sms, gpu.sm.max_threads / 32)",
                                              s, num_sms - 1, warp_slots - 1));
        m_watch.insert({sm, warp});
    }
}

void WatchLog::on_event(const core::SmEvent& e) {
    std::string what;
    switch (e.kind) {
    case core::SmEventKind::Fetch: what = fmt::format("fetch {} instruction(s) from pc {}", e.other, e.pc); break;
    case core::SmEventKind::Issue:
        what = fmt::format("issue pc {:<4} mask {:08x}  {}", e.pc, e.mask, e.inst ? e.inst->text : "");
        if (const std::string src = e.source_line(); !src.empty()) what += "  // " + src;
        break;
    case core::SmEventKind::Stall: what = "stall: " + stall_reason_text(e.reason); break;
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

void ObserverFanout::on_execute(const core::ExecutedInstruction& e) {
    for (auto* o : m_list)
        if (o->watches(e.sm, e.warp)) o->on_execute(e);
}

void ObserverFanout::on_event(const core::SmEvent& e) {
    for (auto* o : m_list) {
        bool per_warp = e.kind != core::SmEventKind::CtaStart && e.kind != core::SmEventKind::CtaEnd;
        if (!per_warp || o->watches(e.sm, e.warp)) o->on_event(e);
    }
}

}  // namespace stacksim::top
