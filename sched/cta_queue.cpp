// SPDX-License-Identifier: Apache-2.0
// The CTAs of one kernel waiting for an SM.
#include "sched/cta_queue.h"

namespace stacksim::sched {

void CtaQueue::start_next(SmLink& sm) {
    if (!m_saved.empty()) {
        std::unique_ptr<core::SavedCta> s = std::move(m_saved.front());
        m_saved.pop_front();
        sm.send(core::CtaCommand::restore(m_launch, std::move(s)));
    } else if (!m_flushed.empty()) {
        const uint64_t i = m_flushed.front();
        m_flushed.pop_front();
        sm.send(core::CtaCommand::start(m_launch, i));
    } else {
        sm.send(core::CtaCommand::start(m_launch, m_next++));
    }
}

}  // namespace stacksim::sched
