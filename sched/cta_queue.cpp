// SPDX-License-Identifier: Apache-2.0
// The CTAs of one kernel waiting for an SM.
#include "sched/cta_queue.h"

namespace stacksim::sched {

void CtaQueue::start_next(core::CtaHost& sm) {
    if (!m_saved.empty()) {
        std::unique_ptr<core::SavedCta> s = std::move(m_saved.front());
        m_saved.pop_front();
        sm.restore_cta(m_launch, std::move(s));
    } else if (!m_flushed.empty()) {
        const uint64_t i = m_flushed.front();
        m_flushed.pop_front();
        sm.start_cta(m_launch, i);
    } else {
        sm.start_cta(m_launch, m_next++);
    }
}

}  // namespace stacksim::sched
