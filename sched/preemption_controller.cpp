// SPDX-License-Identifier: Apache-2.0
// The preemption controller: frees SMs for a higher-priority kernel, CTA by CTA, by policy.
#include "sched/preemption_controller.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/occupancy.h"

namespace stacksim::sched {

PreemptionController::PreemptionController(sc_core::sc_module_name name, CtaDispatcher& dispatcher,
                                           const core::SmConfig& sm, sim::ClockDomain& clock, double core_mhz,
                                           double memory_gbps, const PreemptionConfig& cfg, sim::StatRegistry& stats)
    : sc_core::sc_module(name),
      m_dispatcher(dispatcher),
      m_sm(sm),
      m_clock(clock),
      m_cycles_per_us(core_mhz),
      m_bytes_per_cycle((cfg.context_bandwidth_gbps > 0 ? cfg.context_bandwidth_gbps : memory_gbps) * 1e3 / core_mhz),
      m_cfg(cfg),
      m_policy(preemption_policies().create(cfg.policy)) {
    SC_METHOD(process);
    sensitive << m_wake;
    dont_initialize();
    sim::StatGroup g(stats, std::string(this->name()));
    g.add("requests", m_requests, "preemption requests that freed at least one SM", "requests");
    g.add("sms_freed", m_sms_freed, "SMs chosen to be freed, over all requests", "SMs");
    g.add("ctas_drained", m_drained, "resident CTAs left to run to their end", "CTAs");
    g.add("ctas_switched", m_switched, "resident CTAs context-switched out", "CTAs");
    g.add("ctas_flushed", m_flushed, "resident CTAs flushed (restart later)", "CTAs");
    g.add("latency", m_latency, "request to all chosen SMs free", "cycles");
    if (m_policy->dirty_tracking()) {
        register_pep_stats(stats);
        // Without it (the thesis's rule) every save writes the CTA's whole shared memory.
        if (m_cfg.dirty_shared_memory)
            for (SmLink* sm : m_dispatcher.sms())
                sm->send(core::CtaCommand::set(core::CtaCommandKind::TrackSharedStores, 1));
    }
    SC_METHOD(predict);
    sensitive << m_predict_q;
    dont_initialize();
}

void PreemptionController::receive(core::CtaEvent& e) {
    switch (e.kind) {
    case core::CtaEventKind::KernelStarted:
        if (!m_policy->preempts() || !m_priority_preemption) return;
        m_triggers.push_back(e.launch);
        m_forced.push_back(false);
        m_victims.push_back(nullptr);
        m_wake.notify(sc_core::SC_ZERO_TIME);
        return;
    case core::CtaEventKind::Finished:
    case core::CtaEventKind::Saved:
    case core::CtaEventKind::Flushed: on_cta_left(e); return;
    case core::CtaEventKind::Checkpointed: return;
    }
}

void PreemptionController::receive(KernelEvent& e) {
    if (e.kind == KernelEventKind::LaunchCalled) launch_called(*e.kernel);
    else request(*e.kernel, e.victim);
}

void PreemptionController::request(core::KernelLaunch& kernel, const core::KernelLaunch* victim) {
    m_triggers.push_back(&kernel);
    m_forced.push_back(true);
    m_victims.push_back(victim);
    m_wake.notify(sc_core::SC_ZERO_TIME);
}

void PreemptionController::process() {
    auto triggers = std::move(m_triggers);
    auto forced = std::move(m_forced);
    auto victims = std::move(m_victims);
    m_triggers.clear();
    m_forced.clear();
    m_victims.clear();
    for (size_t i = 0; i < triggers.size(); ++i)
        if (kernel_running(*triggers[i])) handle(*triggers[i], forced[i], victims[i]);
}

bool PreemptionController::kernel_running(const core::KernelLaunch& k) const {
    for (const core::KernelLaunch* r : m_dispatcher.running())
        if (r == &k) return true;
    return false;
}

uint32_t PreemptionController::sms_wanted(const core::KernelLaunch& k) const {
    const uint64_t per_sm = std::max<uint32_t>(
        1, core::occupancy(m_sm, k.threads_per_cta(), k.regs_per_thread, k.shared_bytes).ctas);
    uint64_t n = (m_dispatcher.ctas_pending(k) + per_sm - 1) / per_sm;
    if (m_cfg.max_sms) n = std::min<uint64_t>(n, m_cfg.max_sms);
    return static_cast<uint32_t>(n);
}

CtaEstimate PreemptionController::estimate(const core::ResidentCta& c, uint64_t sm_context_bytes,
                                           uint32_t sms_sharing) const {
    const core::KernelLaunch& k = *c.launch;
    CtaEstimate e;
    e.cta = &c;
    e.idempotent = k.idempotent;
    e.cycles_per_us = m_cycles_per_us;
    e.flush_cycles = c.resident_cycles;
    // Remaining instructions: the average of the kernel's finished CTAs minus what this one has
    // issued; before any CTA finished, assume it is half way (remaining = elapsed).
    if (k.ctas_completed > 0 && c.warp_instructions > 0) {
        const double total = static_cast<double>(k.cta_instructions) / static_cast<double>(k.ctas_completed);
        const double cpi = static_cast<double>(c.resident_cycles) / static_cast<double>(c.warp_instructions);
        const double remaining = std::max(0.0, total - static_cast<double>(c.warp_instructions));
        e.drain_cycles = static_cast<uint64_t>(std::ceil(remaining * cpi));
    } else {
        e.drain_cycles = c.resident_cycles;
    }
    const double share = m_bytes_per_cycle / std::max<uint32_t>(1, sms_sharing);
    // The SM's CTAs leave through the same share of bandwidth: the SM is free once all of them are
    // saved, so a CTA's switch is estimated with the context of every CTA of its SM.
    e.switch_cycles = static_cast<uint64_t>(std::ceil(static_cast<double>(sm_context_bytes) / share));
    e.measured_drain_cycles = e.drain_cycles;
    if (k.ctas_completed > 0) {
        const uint64_t avg = k.cta_cycles / k.ctas_completed;
        e.measured_drain_cycles = avg > c.resident_cycles ? avg - c.resident_cycles : 0;
    }
    e.checkpoints = c.checkpoints;
    return e;
}

void PreemptionController::handle(core::KernelLaunch& kernel, bool forced, const core::KernelLaunch* victim) {
    const auto& sms = m_dispatcher.sms();
    // PEP: the request came; the SMs prepared for it stop arming new CTAs.
    std::vector<uint32_t> prepared;
    for (auto it = m_prepared.begin(); it != m_prepared.end(); ++it)
        if (it->first == &kernel) {
            prepared = std::move(it->second);
            m_prepared.erase(it);
            break;
        }
    for (uint32_t s : prepared) sms[s]->send(core::CtaCommand::set(core::CtaCommandKind::ArmCheckpoints, 0));
    const uint32_t wanted = sms_wanted(kernel);
    if (wanted == 0) return;
    // Candidates: SMs not reserved, whose CTAs all belong to lower-priority kernels (and
    // some CTA is there: an empty unreserved SM would already have taken the kernel's CTAs).
    struct Candidate {
        uint32_t sm;
        uint64_t latency;
        std::vector<core::ResidentCta> ctas;
        bool prepared;
    };
    std::vector<Candidate> cands;
    for (uint32_t s : candidates(kernel, forced, victim))
        cands.push_back({s, 0, sms[s]->resident_ctas(),
                         std::find(prepared.begin(), prepared.end(), s) != prepared.end()});
    if (cands.empty()) return;
    const uint32_t n = std::min<uint32_t>(wanted, static_cast<uint32_t>(cands.size()));
    auto sm_context = [](const std::vector<core::ResidentCta>& ctas) {
        uint64_t b = 0;
        for (auto& r : ctas) b += r.context_bytes;
        return b;
    };
    for (auto& c : cands)
        for (auto& r : c.ctas) {
            if (r.leaving) continue;
            CtaEstimate e = estimate(r, sm_context(c.ctas), n);
            c.latency = std::max(c.latency, PreemptionPolicy::latency(e, m_policy->choose(e)));
        }
    // PEP: the SMs that took first checkpoints come first.
    std::stable_sort(cands.begin(), cands.end(), [](const Candidate& a, const Candidate& b) {
        return a.prepared != b.prepared ? a.prepared : a.latency < b.latency;
    });
    cands.resize(n);

    ++m_requests;
    Record rec;
    rec.kernel = kernel.name();
    rec.request_cycle = m_clock.cycle();
    rec.sms = n;
    Active a{&kernel, m_records.size(), {}, {}, {}};
    const bool dirty = m_policy->dirty_tracking();
    const core::Occupancy occ = core::occupancy(m_sm, kernel.threads_per_cta(), kernel.regs_per_thread, kernel.shared_bytes);
    // PEP+in-place: what the preempting kernel leaves unused of the SM's registers and shared memory.
    // Its CTAs per SM: what occupancy allows, at most its share of the CTAs over the SMs taken.
    const uint64_t per_sm = std::min<uint64_t>(occ.ctas, (kernel.num_ctas() + n - 1) / n);
    const uint64_t used = per_sm * (uint64_t{core::registers_per_warp(kernel.regs_per_thread)} *
                                                kernel.warps_per_cta() * 4 + kernel.shared_bytes);
    const uint64_t capacity = uint64_t{m_sm.registers} * 4 + m_sm.shared_memory_bytes;
    const uint64_t budget = m_policy->in_place() && capacity > used ? capacity - used : 0;
    for (auto& c : cands) {
        a.sms.push_back(c.sm);
        m_dispatcher.reserve(c.sm, &kernel);
        if (dirty) sms[c.sm]->send(core::CtaCommand::set(core::CtaCommandKind::SetInplaceBudget, budget));
        for (auto& r : c.ctas) {
            if (r.leaving) continue;
            const CtaEstimate e = estimate(r, sm_context(c.ctas), n);
            core::PreemptTechnique t = m_policy->preempts() ? m_policy->choose(e) : core::PreemptTechnique::Drain;
            // A CTA whose context is being read back finishes its restore by draining (whatever the
            // policy: an SM cannot switch or flush a CTA before it runs again).
            if (r.restoring && t != core::PreemptTechnique::Drain) t = core::PreemptTechnique::Drain;
            if (t == core::PreemptTechnique::Flush && !r.launch->idempotent)
                throw std::logic_error("preemption policy chose to flush a CTA of a non-idempotent kernel");
            switch (t) {
            case core::PreemptTechnique::Drain: ++m_drained, ++rec.drained; break;
            case core::PreemptTechnique::Switch: ++m_switched, ++rec.switched; break;
            case core::PreemptTechnique::Flush: ++m_flushed, ++rec.flushed; break;
            }
            if (m_policy->proactive() && t != core::PreemptTechnique::Flush) ++m_cases[count_case(r, t)];
            core::CtaCommand own;
            if (m_policy->command(r, t, e, own)) {
                sms[c.sm]->send(std::move(own));
            } else if (dirty && t == core::PreemptTechnique::Switch) {
                core::CheckpointOrder o;
                o.counters = &m_ckpt;
                sms[c.sm]->send(core::CtaCommand::checkpoint(r.slot, o));
            } else {
                if (t != core::PreemptTechnique::Drain) sms[c.sm]->send(core::CtaCommand::preempt(r.slot, t));
            }
        }
    }
    m_sms_freed += n;
    a.free.assign(a.sms.size(), false);
    for (uint32_t s : a.sms) {
        uint32_t others = 0;
        for (const core::ResidentCta& c : sms[s]->resident_ctas()) others += c.launch != &kernel;
        a.others.push_back(others);
    }
    m_records.push_back(rec);
    m_active.push_back(std::move(a));
    update(m_active.back());
    m_active.erase(std::remove_if(m_active.begin(), m_active.end(), [](const Active& x) { return !x.open; }),
                   m_active.end());
}

void PreemptionController::on_cta_left(const core::CtaEvent& e) {
    if (m_active.empty()) return;
    for (Active& a : m_active)
        for (size_t i = 0; i < a.sms.size(); ++i)
            if (m_dispatcher.sms()[a.sms[i]]->sm_id() == e.sm && e.launch != a.kernel && a.others[i] > 0) --a.others[i];
    for (Active& a : m_active) update(a);
    m_active.erase(std::remove_if(m_active.begin(), m_active.end(), [](const Active& x) { return !x.open; }),
                   m_active.end());
}

void PreemptionController::update(Active& a) {
    const bool running = kernel_running(*a.kernel);
    const bool waiting = running && m_dispatcher.ctas_pending(*a.kernel) > 0;
    bool all_free = true;
    for (size_t i = 0; i < a.sms.size(); ++i) {
        const uint32_t s = a.sms[i];
        // A kernel that finished before the SM emptied (only drains left) ends the wait.
        if (!a.free[i]) a.free[i] = a.others[i] == 0 || !running;
        all_free = all_free && a.free[i];
        if (a.free[i] && !waiting && m_dispatcher.reserved_for(s) == a.kernel) m_dispatcher.reserve(s, nullptr);
    }
    Record& r = m_records[a.record];
    if (all_free && !r.done) {
        r.done = true;
        r.done_cycle = m_clock.cycle();
        m_latency.sample(static_cast<double>(m_clock.cycle() - r.request_cycle));
    }
    if (all_free && !waiting) a.open = false;
}

}  // namespace stacksim::sched
