// SPDX-License-Identifier: Apache-2.0
// Kernel queue and CTA dispatch to SMs (round robin, as many rounds as resources allow).
#include "sched/cta_dispatcher.h"

namespace stacksim::sched {

void CtaDispatcher::launch(core::KernelLaunch& launch, Done on_done) {
    m_queue.push_back({&launch, std::move(on_done)});
    if (!m_current) start_next();
}

void CtaDispatcher::start_next() {
    while (!m_current && !m_queue.empty()) {
        Queued q = std::move(m_queue.front());
        m_queue.pop_front();
        m_current = q.launch;
        m_current_done = std::move(q.on_done);
        m_next_cta = 0;
        m_completed = 0;
        if (m_current->num_ctas() == 0) {  // an empty grid finishes at once
            core::KernelLaunch* done = m_current;
            m_current = nullptr;
            m_current_done(*done);
            continue;
        }
        dispatch();
    }
}

void CtaDispatcher::dispatch() { m_placement->place(m_sms, *m_current, m_next_cta, m_rr); }

void RoundRobinPlacement::place(const std::vector<core::CtaHost*>& sms, core::KernelLaunch& k,
                                uint64_t& next_cta, size_t& cursor) {
    const size_t n = sms.size();
    bool placed = true;
    while (placed && next_cta < k.num_ctas()) {
        placed = false;
        for (size_t i = 0; i < n && next_cta < k.num_ctas(); ++i) {
            core::CtaHost* sm = sms[cursor];
            cursor = (cursor + 1) % n;
            if (sm->can_accept(k)) {
                sm->start_cta(k, next_cta++);
                placed = true;
            }
        }
    }
}

void FillPlacement::place(const std::vector<core::CtaHost*>& sms, core::KernelLaunch& k, uint64_t& next_cta,
                          size_t& cursor) {
    const size_t n = sms.size();
    for (size_t i = 0; i < n && next_cta < k.num_ctas(); ++i) {
        core::CtaHost* sm = sms[(cursor + i) % n];
        while (next_cta < k.num_ctas() && sm->can_accept(k)) sm->start_cta(k, next_cta++);
    }
    (void)cursor;  // always scans from SM 0: the lowest-numbered SM with room fills first
}

const CtaPlacementRegistry& cta_scheduler_registry() {
    static const CtaPlacementRegistry registry = [] {
        CtaPlacementRegistry r("CTA scheduler");
        r.add("round_robin", "one CTA per SM per pass, as many passes as resources allow (default)",
              [] { return std::make_unique<RoundRobinPlacement>(); });
        r.add("fill", "consecutive CTAs to the same SM until it is full, then the next SM",
              [] { return std::make_unique<FillPlacement>(); });
        return r;
    }();
    return registry;
}

void CtaDispatcher::cta_done(core::CtaHost&, core::KernelLaunch& launch) {
    ++m_completed_total;
    if (&launch != m_current) return;
    ++m_completed;
    if (m_completed == m_current->num_ctas()) {
        core::KernelLaunch* done = m_current;
        Done cb = std::move(m_current_done);
        m_current = nullptr;
        cb(*done);
        start_next();
        return;
    }
    dispatch();
}

}  // namespace stacksim::sched
