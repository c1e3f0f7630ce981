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
