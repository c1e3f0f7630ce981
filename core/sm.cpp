// SPDX-License-Identifier: Apache-2.0
// Streaming multiprocessor: issue, the tick, and what the CTA manager asks of the pipeline.
#include "core/sm.h"

#include <fmt/format.h>

#include "core/functional_executor.h"
#include "core/kernel_launch.h"
#include "core/occupancy.h"
#include "common/lost_locality_extension.h"
#include "sim/error.h"

namespace stacksim::core {

Sm::Sm(sc_core::sc_module_name name, uint32_t id, const SmConfig& cfg, sim::ClockDomain& clock,
       std::vector<std::unique_ptr<WarpSchedulerPolicy>> policies, sim::StatRegistry& stats)
    : sc_module(name), downstream("downstream"), m_id(id), m_cfg(cfg), m_clock(clock),
      m_policies(std::move(policies)), m_ctas(id, m_cfg, clock, *this, stats, this->name()), m_collector(cfg.regfile_banks, cfg.collector_units),
      m_icache(common::TagArrayGeometry{cfg.icache_bytes, cfg.icache_ways, cfg.icache_line_bytes,
                                        cfg.icache_line_bytes}),
      m_const_cache(common::TagArrayGeometry{cfg.const_cache_bytes, 4, 64, 64}) {
    downstream.on_end_req([this] { m_clock.activate(*this); });
    downstream.on_response([this](tlm::tlm_generic_payload& p) {
        m_responses.push_back(&p);
        m_clock.activate(*this);
    });
    m_warps.resize(cfg.max_threads / kWarpSize);
    for (Warp& w : m_warps) w.ibuffer.count_changes(&m_fetch_changes);
    m_sched_warps.resize(cfg.schedulers);
    m_last_outcome.assign(cfg.schedulers, IssueOutcome::Idle);
    m_last_charged.assign(cfg.schedulers, nullptr);
    m_memo.resize(cfg.schedulers, static_cast<uint32_t>(m_warps.size()));
    auto make_pipe = [](const PipeConfig& p) {
        return Pipe{std::vector<uint64_t>(p.units, 0), p.initiation_interval, p.latency};
    };
    m_alu = make_pipe(cfg.alu);
    m_fp64 = make_pipe(cfg.fp64);
    m_sfu = make_pipe(cfg.sfu);
    m_ldst = make_pipe(cfg.ldst);
    m_ctrl = Pipe{std::vector<uint64_t>(cfg.schedulers, 0), 1, cfg.branch_latency};
    if (m_policies.size() != cfg.schedulers)
        throw std::logic_error("Sm: one warp-scheduling policy per scheduler is required");

    sim::StatGroup g(stats, std::string(this->name()));
    g.add("warp_instructions", m_issued_insts, "warp instructions issued", "instructions");
    g.add("thread_instructions", m_thread_insts, "thread instructions: SIMT-active lanes of each issued warp instruction", "instructions");
    g.add("active_cycles", m_active_cycles, "cycles with at least one CTA resident", "cycles");
    g.add("branches", m_branches, "branch instructions issued", "instructions");
    g.add("divergent_branches", m_divergent_branches, "branches that split the warp", "instructions");
    g.add("memory_requests", m_mem_requests, "global memory line requests sent", "requests");
    g.add("shared_accesses", m_shared_accesses, "shared-memory warp accesses", "accesses");
    g.add("local_loads", m_local_loads, "warp loads from local memory (.local, per-thread arrays and spills)", "accesses");
    g.add("local_stores", m_local_stores, "warp stores to local memory (.local, per-thread arrays and spills)", "accesses");
    g.add("bank_conflict_cycles", m_bank_conflict_cycles, "extra LD/ST cycles from shared-memory bank conflicts", "cycles");
    g.add("icache.hits", m_icache_hits, "instruction fetches that hit the I-cache", "fetches");
    g.add("icache.misses", m_icache_misses, "instruction fetches that missed (line fill started or pending)", "fetches");
    g.add("const_cache.hits", m_const_hits, "kernel-parameter loads and __constant__ accesses (one per distinct address of a warp load) that hit the constant cache", "instructions");
    g.add("const_cache.misses", m_const_misses, "kernel-parameter loads and __constant__ accesses (one per distinct address of a warp load) that missed the constant cache", "instructions");
    g.add("fp64_instructions", m_fp64_insts, "warp instructions issued to the FP64 pipes", "instructions");
    g.add("sfu_instructions", m_sfu_insts, "warp instructions issued to the SFUs", "instructions");
    g.add_formula("regfile_conflict_cycles", [this] { return static_cast<double>(m_collector.conflict_cycles()); },
                  "operand reads delayed by register-bank conflicts", "cycles");
    for (size_t i = 0; i < m_outcomes.size(); ++i)
        g.add(std::string("issue.") + outcome_name(static_cast<IssueOutcome>(i)), m_outcomes[i],
              "scheduler issue slots with this outcome", "slots");
    g.add_formula("simt_efficiency", [this] {
        double w = static_cast<double>(m_issued_insts.value());
        return w ? static_cast<double>(m_thread_insts.value()) / (w * kWarpSize) : 0.0;
    }, "average fraction of lanes active per issued warp instruction", "ratio");
}

Sm::Pipe& Sm::pipe_for(UnitClass u) {
    switch (u) {
    case UnitClass::Alu: return m_alu;
    case UnitClass::Fp64: return m_fp64;
    case UnitClass::Sfu: return m_sfu;
    case UnitClass::LdSt: return m_ldst;
    case UnitClass::Control: return m_ctrl;
    }
    return m_alu;
}

void Sm::process_responses(uint64_t) {
    for (tlm::tlm_generic_payload* p : m_responses) {
        const sim::MemExtension& e = sim::PayloadPool::ext(*p);
        if (e.traffic == sim::TrafficClass::Context) {
            const uint32_t slot = e.tag;
            p->release();
            end_in_flight();
            m_ctas.context_response(slot);
            continue;
        }
        if (e.traffic == sim::TrafficClass::Instruction) {  // the payload's address names the line
            const uint64_t addr = p->get_address();
            p->release();
            fetch_response(addr);
            continue;
        }
        Warp& w = m_warps[e.warp];
        --w.pending_mem;
        end_in_flight();
        touch_warp(e.warp);  // a load's registers, its pending-load count, a lost-locality score
        if (e.tag != kNoOp) {
            PendingLoad& ld = m_loads[e.tag];
            if (--ld.remaining == 0) {
                for (unsigned i = 0; i < ld.inst->num_writes; ++i) w.scoreboard.release(ld.inst->writes[i]);
                m_free_loads.push_back(e.tag);
                --w.pending_loads;
            }
        }
        if (common::LostLocalityExtension::is_set(*p)) m_policies[e.warp % m_cfg.schedulers]->on_lost_locality(e.warp);
        p->release();
        if (w.finished && w.pending_mem == 0) free_warp(e.warp);
        m_progress = true;
    }
    m_responses.clear();
}

void Sm::process_writebacks(uint64_t cycle) {
    while (!m_writebacks.empty() && m_writebacks.top().cycle <= cycle) {
        const Writeback& wb = m_writebacks.top();
        Warp& w = m_warps[wb.warp];
        if (w.used && w.generation == wb.generation) {
            w.scoreboard.release(wb.reg);
            touch_warp(wb.warp);
        }
        m_writebacks.pop();
        m_progress = true;
    }
    if (!m_writebacks.empty()) note_wake(m_writebacks.top().cycle);
}

void Sm::account_sleep(uint64_t cycle) {
    const uint64_t slept = cycle > m_last_tick + 1 ? cycle - m_last_tick - 1 : 0;
    m_last_tick = cycle;
    if (!slept || !m_resident_after_tick) return;
    m_active_cycles += slept;
    for (uint32_t s = 0; s < m_cfg.schedulers; ++s) {
        const size_t o = static_cast<size_t>(m_last_outcome[s]);
        m_outcomes[o] += slept;
        // Its kernel may have ended meanwhile (its tallies collected): then nobody counts them.
        if (m_last_charged[s])
            if (KernelTally* t = m_ctas.find_tally(m_last_charged[s])) t->outcomes[o] += slept;
    }
}

bool Sm::tick(uint64_t cycle) {
    account_sleep(cycle);
    m_progress = false;
    m_next_wake = ~uint64_t{0};
    process_responses(cycle);
    process_writebacks(cycle);
    if (m_ctas.needs_step()) m_ctas.step();
    m_resident_after_tick = false;
    if (m_ctas.running() == 0 && m_outgoing.empty()) return false;
    if (m_ctas.running()) {
        ++m_active_cycles;
        issue(cycle);  // no CTA, no warp to issue: slots are counted while one is resident
    }
    if (m_observer) observe_warps(cycle);
    fetch(cycle);
    send_requests(cycle);
    m_resident_after_tick = m_ctas.running() > 0;
    if (m_progress) return true;
    // Nothing moved: sleep until the earliest known event; responses wake us too.
    if (m_next_wake != ~uint64_t{0}) m_clock.wake_at(*this, std::max(m_next_wake, cycle + 1));
    return false;
}

void Sm::issue(uint64_t cycle) {
    for (uint32_t s = 0; s < m_cfg.schedulers; ++s) {
        const uint64_t epoch = m_ctas.epoch();  // an earlier scheduler's issue may end a CTA
        auto& warps = m_sched_warps[s];
        if (warps.empty()) {
            ++m_outcomes[static_cast<size_t>(IssueOutcome::Idle)];
            m_last_outcome[s] = IssueOutcome::Idle;
            m_last_charged[s] = nullptr;
            continue;
        }
        const IssueMemo::Entry* memo = m_cfg.issue_memo ? m_memo.reusable(s, cycle, epoch) : nullptr;
        if (memo) {
            // Nothing this scheduler's scan reads has changed: it would stall the same way.
            if (memo->until != ~uint64_t{0}) note_wake(memo->until);
            charge_stall(s, memo->outcome, *memo->charged);
            continue;
        }
        m_refs.clear();
        for (uint32_t slot : warps) m_refs.push_back({slot, m_warps[slot].age, m_warps[slot].pending_loads > 0, m_warps[slot].at_barrier});
        m_policies[s]->prioritize(m_refs, m_order);
        IssueOutcome outcome = IssueOutcome::Idle;
        // The kernel the slot is charged to: the issuing or first stalled warp's (taken before
        // issuing, since an exiting warp frees its slot).
        const CtaSlot* charged = &m_ctas.cta(m_warps[warps.front()].cta_slot);
        bool issued = false;
        bool any_fetch_wait = false;
        // The wakes this scan notes bound how long its stall holds.
        const uint64_t wake_before = m_next_wake;
        m_next_wake = ~uint64_t{0};
        for (uint32_t slot : m_order) {
            bool has_inst = false;
            IssueOutcome o;
            const IssueMemo::WarpEntry* wm = m_cfg.issue_memo ? m_memo.warp(slot, cycle, epoch) : nullptr;
            if (wm) {
                o = wm->outcome;
                has_inst = wm->has_instruction;
                if (wm->until != ~uint64_t{0}) note_wake(wm->until);
            } else {
                o = try_issue(slot, cycle, has_inst);
                if (o == IssueOutcome::Issued) {
                    m_policies[s]->on_issue(slot, m_last_long);
                    issued = true;
                    outcome = o;
                    break;
                }
                if (m_cfg.issue_memo) remember_stall(slot, o, has_inst, epoch);
            }
            if (has_inst && outcome == IssueOutcome::Idle) {
                outcome = o;
                charged = &m_ctas.cta(m_warps[slot].cta_slot);
            }
            if (!has_inst) any_fetch_wait = true;
        }
        const uint64_t until = m_next_wake;
        note_wake(wake_before);
        if (issued) {
            ++m_outcomes[static_cast<size_t>(outcome)];
            // Charged by try_issue() before the instruction ran: an EXIT that ends the kernel's
            // last CTA makes its record, which must include that slot.
            m_last_outcome[s] = outcome;
            m_last_charged[s] = nullptr;  // no sleep follows an issue
            m_memo.invalidate(s);
            continue;
        }
        if (outcome == IssueOutcome::Idle && any_fetch_wait) outcome = IssueOutcome::Fetch;
        charge_stall(s, outcome, *charged);
        if (m_cfg.issue_memo && m_policies[s]->order_stable()) m_memo.record(s, outcome, charged, until, epoch);
    }
}

void Sm::remember_stall(uint32_t slot, IssueOutcome o, bool has_inst, uint64_t epoch) {
    // Pipe, collector and throttle stalls depend on other warps' issues: never remembered.
    uint64_t until = ~uint64_t{0};
    switch (o) {
    case IssueOutcome::Fetch: {
        const Warp& w = m_warps[slot];
        if (!w.ibuffer.empty()) until = w.ibuffer.head_ready();
        break;
    }
    case IssueOutcome::Idle:
    case IssueOutcome::Synchronization:
    case IssueOutcome::MemoryDependency:
    case IssueOutcome::ExecutionDependency: break;
    default: return;
    }
    m_memo.record_warp(slot, o, has_inst, until, epoch);
}

void Sm::charge_stall(uint32_t s, IssueOutcome outcome, const CtaSlot& charged) {
    ++m_outcomes[static_cast<size_t>(outcome)];
    ++charged.tally->outcomes[static_cast<size_t>(outcome)];
    m_last_outcome[s] = outcome;
    m_last_charged[s] = charged.launch;
}

IssueOutcome Sm::check_issue(uint32_t slot, uint64_t cycle, bool& has_inst, size_t& unit) {
    Warp& w = m_warps[slot];
    if (w.finished || m_ctas.cta(w.cta_slot).state != CtaState::Running) return IssueOutcome::Idle;
    if (w.ibuffer.empty()) return IssueOutcome::Fetch;
    if (w.ibuffer.head_ready() > cycle) {
        note_wake(w.ibuffer.head_ready());
        return IssueOutcome::Fetch;
    }
    has_inst = true;
    if (w.at_barrier) return IssueOutcome::Synchronization;
    const Instruction& inst = w.inst(w.ibuffer.head_pc());
    switch (w.scoreboard.check(inst)) {
    case Hazard::Memory: return IssueOutcome::MemoryDependency;
    case Hazard::Execution: return IssueOutcome::ExecutionDependency;
    case Hazard::None: break;
    }
    Pipe& pipe = pipe_for(inst.unit());
    unit = pipe.next_free.size();
    uint64_t earliest = ~uint64_t{0};
    for (size_t u = 0; u < pipe.next_free.size(); ++u) {
        if (pipe.next_free[u] <= cycle) {
            unit = u;
            break;
        }
        earliest = std::min(earliest, pipe.next_free[u]);
    }
    if (unit == pipe.next_free.size()) {
        note_wake(earliest);
        return IssueOutcome::PipelineBusy;
    }
    if (inst.unit() == UnitClass::LdSt && m_in_flight >= m_cfg.max_pending_requests)
        return IssueOutcome::MemoryThrottle;
    if (!m_collector.unit_free(cycle)) {
        note_wake(m_collector.next_unit_free());
        return IssueOutcome::PipelineBusy;
    }
    return IssueOutcome::Issued;
}

IssueOutcome Sm::try_issue(uint32_t slot, uint64_t cycle, bool& has_inst) {
    size_t unit = 0;
    IssueOutcome o = check_issue(slot, cycle, has_inst, unit);
    if (o != IssueOutcome::Issued) return o;
    Warp& w = m_warps[slot];
    const Instruction& inst = w.inst(w.ibuffer.head_pc());
    Pipe& pipe = pipe_for(inst.unit());
    w.ibuffer.pop();
    pipe.next_free[unit] = cycle + pipe.ii;
    m_progress = true;
    if (watched(slot)) {
        emit(SmEventKind::Issue, cycle, slot, w.stack.pc(), w.stack.mask(), 0, 0, 0, &inst);
        m_watch_state[slot] = static_cast<uint8_t>(IssueOutcome::Issued);
    }
    ++m_ctas.cta(w.cta_slot).tally->outcomes[static_cast<size_t>(IssueOutcome::Issued)];
    execute_and_retire(w, slot, inst, cycle, pipe, unit);
    return IssueOutcome::Issued;
}

void Sm::emit(SmEventKind kind, uint64_t cycle, uint32_t warp, uint32_t pc, uint32_t mask, uint32_t other,
              uint32_t reconv, uint8_t reason, const Instruction* inst) {
    // CTA events come from the CTA manager.
    SmEvent e{kind, cycle, m_id, warp, 0, pc, mask, other, reconv, reason, inst};
    if (m_warps[warp].used) {
        e.cta = m_ctas.cta(m_warps[warp].cta_slot).cta_index;
        e.depth = static_cast<uint32_t>(m_warps[warp].stack.depth());
        if (const KernelLaunch* launch = m_ctas.cta(m_warps[warp].cta_slot).launch) {
            e.kernel = launch->name().c_str();
            if (launch->kernel) e.source_files = &launch->kernel->source_files;
        }
    }
    m_observer->on_event(e);
}

void Sm::observe_warps(uint64_t cycle) {
    // Watched warps that did not issue report why, once per change of reason.
    if (m_watch_state.size() < m_warps.size()) m_watch_state.assign(m_warps.size(), 0xFF);
    for (uint32_t slot = 0; slot < m_warps.size(); ++slot) {
        const Warp& w = m_warps[slot];
        if (!w.used || w.finished || !watched(slot)) continue;
        if (m_watch_state[slot] == static_cast<uint8_t>(IssueOutcome::Issued)) {
            m_watch_state[slot] = 0xFE;  // issued this cycle: nothing to report
            continue;
        }
        bool has_inst = false;
        size_t unit = 0;
        const uint64_t saved_wake = m_next_wake;
        IssueOutcome o = check_issue(slot, cycle, has_inst, unit);
        m_next_wake = saved_wake;
        uint8_t reason = static_cast<uint8_t>(o);
        if (o == IssueOutcome::Issued && !m_policies[slot % m_cfg.schedulers]->considers(slot))
            reason = kStallPending;
        if (m_watch_state[slot] != reason) {
            m_watch_state[slot] = reason;
            emit(SmEventKind::Stall, cycle, slot, w.stack.empty() ? 0 : w.stack.pc(), 0, 0, 0, reason);
        }
    }
}

}  // namespace stacksim::core
