// SPDX-License-Identifier: Apache-2.0
// CTA dispatch for every running kernel: priorities, SM sharing, reservations for preemption.
#include "sched/cta_dispatcher.h"

#include <stdexcept>

namespace stacksim::sched {

CtaDispatcher::CtaDispatcher(const std::vector<const core::CtaStatus*>& sms, std::unique_ptr<CtaPlacement> placement,
                             SmSharing sharing)
    : m_placement(std::move(placement)), m_sharing(sharing), m_reserved(sms.size(), nullptr) {
    for (const core::CtaStatus* s : sms) {
        m_links.push_back(std::make_unique<SmLink>(*s));
        m_sms.push_back(m_links.back().get());
    }
}

void CtaDispatcher::start(core::KernelLaunch& launch, Done on_done) {
    // Service order: higher priority first, then start order.
    auto it = m_running.begin();
    while (it != m_running.end() && it->queue.launch().priority >= launch.priority) ++it;
    Running& r = *m_running.emplace(it, launch);
    r.on_done = std::move(on_done);
    r.order = m_order++;
    if (launch.num_ctas() == 0) {  // an empty grid finishes at once
        finish_if_done(r);
        return;
    }
    dispatch();
    core::CtaEvent e;
    e.kind = core::CtaEventKind::KernelStarted;
    e.launch = &launch;
    events.send(std::move(e));
}

CtaDispatcher::Running* CtaDispatcher::find(const core::KernelLaunch& launch) {
    for (auto& r : m_running)
        if (!r.finished && &r.queue.launch() == &launch) return &r;
    return nullptr;
}

std::vector<const core::KernelLaunch*> CtaDispatcher::running() const {
    std::vector<const core::KernelLaunch*> out;
    for (auto& r : m_running)
        if (!r.finished) out.push_back(&r.queue.launch());
    return out;
}

uint64_t CtaDispatcher::ctas_pending(const core::KernelLaunch& launch) const {
    for (auto& r : m_running)
        if (&r.queue.launch() == &launch) return r.queue.pending();
    return 0;
}

void CtaDispatcher::allowed_sms(const Running& r, std::vector<SmLink*>& out) const {
    out.clear();
    const core::KernelLaunch* me = &r.queue.launch();
    if (m_sharing == SmSharing::Smk) {
        for (size_t i = 0; i < m_sms.size(); ++i)
            if (!m_reserved[i] || m_reserved[i] == me) out.push_back(m_sms[i]);
        return;
    }
    // Spatial: the SMs split evenly among the kernels with CTAs waiting, in service order.
    size_t k = 0, mine = 0;
    for (auto& o : m_running) {
        if (o.finished || o.paused || o.queue.empty()) continue;
        if (&o == &r) mine = k;
        ++k;
    }
    // An SM of the set still finishing another kernel's CTAs joins once they are gone.
    const size_t n = m_sms.size();
    for (size_t i = mine * n / k; i < (mine + 1) * n / k; ++i)
        if ((!m_reserved[i] || m_reserved[i] == me) && m_sms[i]->only_runs(*me)) out.push_back(m_sms[i]);
    for (size_t i = 0; i < n; ++i)
        if (m_reserved[i] == me && (i < mine * n / k || i >= (mine + 1) * n / k) && m_sms[i]->only_runs(*me))
            out.push_back(m_sms[i]);
}

void CtaDispatcher::dispatch() {
    // Placing a CTA can finish nothing synchronously, but guard against re-entry anyway.
    if (m_dispatching) return;
    m_dispatching = true;
    for (auto& r : m_running) {
        if (r.finished || r.paused || r.queue.empty()) continue;
        allowed_sms(r, m_allowed);
        m_placement->place(m_allowed, r.queue, m_rr);
    }
    m_dispatching = false;
    remove_finished();
}

void CtaDispatcher::finish_if_done(Running& r) {
    core::KernelLaunch& launch = r.queue.launch();
    if (r.completed < launch.num_ctas()) return;
    for (auto& res : m_reserved)
        if (res == &launch) res = nullptr;
    r.finished = true;
    collect_tallies(launch);
    Done cb = std::move(r.on_done);
    remove_finished();
    cb(launch);
}

core::KernelTally CtaDispatcher::tally(const core::KernelLaunch& launch) const {
    core::KernelTally t;
    t.outcomes = launch.outcomes;
    t.warp_instructions = launch.warp_instructions;
    for (const SmLink* sm : m_sms) t += sm->tally(launch);
    return t;
}

void CtaDispatcher::collect_tallies(core::KernelLaunch& launch) {
    const core::KernelTally t = tally(launch);
    launch.outcomes = t.outcomes;
    launch.warp_instructions = t.warp_instructions;
    for (SmLink* sm : m_sms) sm->send(core::CtaCommand::forget(launch));
}

void CtaDispatcher::remove_finished() {
    if (!m_dispatching) m_running.remove_if([](const Running& x) { return x.finished; });
}

void CtaDispatcher::receive(core::CtaEvent& e) {
    switch (e.kind) {
    case core::CtaEventKind::Finished: cta_done(e); break;
    case core::CtaEventKind::Saved: cta_saved(*e.launch, std::move(e.saved)); break;
    case core::CtaEventKind::Flushed: cta_flushed(*e.launch, e.cta_index); break;
    case core::CtaEventKind::Checkpointed:
    case core::CtaEventKind::KernelStarted: return;  // nothing leaves the SM
    }
    // The freed room went to the waiting CTAs; now the listeners hear of it.
    events.send(std::move(e));
}

void CtaDispatcher::cta_done(const core::CtaEvent& e) {
    core::KernelLaunch& launch = *e.launch;
    ++launch.ctas_completed;
    launch.cta_cycles += e.cycles;
    launch.cta_instructions += e.instructions;
    ++m_completed_total;
    Running* r = find(launch);
    if (!r) throw std::logic_error("CtaDispatcher: a CTA finished for a kernel that is not running");
    ++r->completed;
    finish_if_done(*r);
    dispatch();
}

void CtaDispatcher::cta_saved(core::KernelLaunch& launch, std::unique_ptr<core::SavedCta> saved) {
    Running* r = find(launch);
    if (!r) throw std::logic_error("CtaDispatcher: a CTA was saved for a kernel that is not running");
    r->queue.push_saved(std::move(saved));
    dispatch();
}

void CtaDispatcher::cta_flushed(core::KernelLaunch& launch, uint64_t cta_index) {
    Running* r = find(launch);
    if (!r) throw std::logic_error("CtaDispatcher: a CTA was flushed for a kernel that is not running");
    r->queue.push_flushed(cta_index);
    dispatch();
}

void CtaDispatcher::pause(const core::KernelLaunch& launch, bool paused) {
    Running* r = find(launch);
    if (!r) throw std::logic_error("CtaDispatcher: pause of a kernel that is not running");
    r->paused = paused;
    dispatch();
}

void CtaDispatcher::reserve(uint32_t sm, const core::KernelLaunch* kernel) {
    m_reserved.at(sm) = kernel;
    dispatch();
}

}  // namespace stacksim::sched
