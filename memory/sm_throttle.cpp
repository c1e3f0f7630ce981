// SPDX-License-Identifier: Apache-2.0
// ETC's memory-aware SM throttling.
#include "memory/sm_throttle.h"

#include <algorithm>

namespace stacksim::memory {

SmThrottle::SmThrottle(uint32_t sms, Throttling kind, uint32_t step, uint64_t detection_cycles,
                       uint64_t execution_cycles, std::function<void(uint32_t, bool)> set_stopped)
    : m_sms(sms), m_kind(kind), m_step(std::max<uint32_t>(step, 1)), m_detection(detection_cycles),
      m_execution(execution_cycles), m_set(std::move(set_stopped)), m_stopped(sms, false), m_since(sms, 0), m_stopped_cycles(sms, 0) {}

void SmThrottle::stop(uint32_t sm, uint64_t now) {
    if (m_stopped[sm] || m_stack.size() + 1 >= m_sms) return;  // one SM always fetches
    m_stopped[sm] = true;
    m_since[sm] = now;
    m_stack.push_back(sm);
    ++m_stops;
    m_max_stopped = std::max<uint64_t>(m_max_stopped, m_stack.size());
    m_set(sm, true);
}

void SmThrottle::release(uint32_t n, uint64_t now) {
    for (uint32_t i = 0; i < n && !m_stack.empty(); ++i) {
        const uint32_t sm = m_stack.back();
        m_stack.pop_back();
        m_stopped[sm] = false;
        m_stopped_cycles[sm] += now - m_since[sm];
        ++m_releases;
        m_set(sm, false);
    }
}

void SmThrottle::trigger(uint64_t now, const std::vector<uint32_t>& busy) {
    if (m_started || m_kind == Throttling::None) return;
    m_started = true;
    std::vector<uint32_t> sms = busy;
    if (sms.empty())
        for (uint32_t sm = 0; sm < m_sms; ++sm) sms.push_back(sm);
    // Idle SMs cost nothing and hold no working set: stopping them would throttle nothing.
    for (size_t i = sms.size() - sms.size() / 2; i < sms.size(); ++i) stop(sms[i], now);
    begin_execution(now);
}

void SmThrottle::begin_execution(uint64_t now) {
    m_epoch = Epoch::Execution;
    m_epoch_end = now + m_execution;
}

void SmThrottle::on_fault(uint32_t sm, uint64_t now, uint64_t evictions) {
    if (!m_started || m_kind != Throttling::Dynamic || m_epoch != Epoch::Detection) return;
    if (evictions > m_epoch_evictions) {
        // The faulting SM is the one most likely starting on new data: it stops first.
        // A stopped SM's request still in flight may fault: that SM is already where the
        // rule puts it, and counts as the first of the step.
        uint32_t n = 0;
        if (sm < m_sms) {
            stop(sm, now);
            ++n;
        }
        for (uint32_t s = m_sms; s-- > 0 && n < m_step;)
            if (!m_stopped[s] && (!m_busy || m_busy(s))) {
                stop(s, now);
                ++n;
            }
    }
    begin_execution(now);
}

void SmThrottle::advance(uint64_t now, uint64_t evictions, bool running_idle, bool faults_pending) {
    if (!m_started) return;
    if (running_idle && !m_stack.empty()) release(m_step, now);
    if (m_kind != Throttling::Dynamic || now < m_epoch_end) return;
    if (m_epoch == Epoch::Execution) {
        m_epoch = Epoch::Detection;
        m_epoch_end = now + m_detection;
        m_epoch_evictions = evictions;
        return;
    }
    if (!faults_pending) release(m_step, now);  // detection timed out without a fault
    begin_execution(now);
}

uint64_t SmThrottle::next_deadline() const {
    return m_started && m_kind == Throttling::Dynamic ? m_epoch_end : ~uint64_t{0};
}

}  // namespace stacksim::memory
