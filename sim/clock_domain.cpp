// SPDX-License-Identifier: Apache-2.0
// One clock domain: a single SC_METHOD that ticks only the active components.
#include "sim/clock_domain.h"

#include "sim/failure.h"

namespace stacksim::sim {

using sc_core::sc_time;
using sc_core::SC_PS;

ClockDomain::ClockDomain(sc_core::sc_module_name name, uint64_t period_ps)
    : sc_module(name), m_period_ps(period_ps), m_period(static_cast<double>(period_ps), SC_PS) {
    SC_METHOD(on_edge);
    sensitive << m_edge;
    dont_initialize();
}

uint64_t ClockDomain::cycle() const {
    return sc_core::sc_time_stamp().value() / m_period.value();
}

uint64_t ClockDomain::cycle_at_or_after_now() const {
    uint64_t now = sc_core::sc_time_stamp().value();
    uint64_t p = m_period.value();
    return (now + p - 1) / p;
}

void ClockDomain::schedule_edge(uint64_t cycle) {
    // Never tick the same cycle twice: an edge already processed moves the request on.
    if (m_any_edge && cycle <= m_current) cycle = m_current + 1;
    if (cycle >= m_scheduled) return;
    m_scheduled = cycle;
    uint64_t target = cycle * m_period.value();
    uint64_t now = sc_core::sc_time_stamp().value();
    if (target <= now)
        m_edge.notify(sc_core::SC_ZERO_TIME);
    else
        m_edge.notify(sc_time::from_value(target - now));
}

void ClockDomain::activate(Clocked& c) {
    if (c.m_active) {
        if (m_in_edge) c.m_poked = true;
        return;
    }
    c.m_active = true;
    if (m_in_edge) {
        m_next.push_back(&c);
        return;
    }
    m_active.push_back(&c);
    schedule_edge(cycle_at_or_after_now());
}

void ClockDomain::wake_at(Clocked& c, uint64_t cycle) {
    if (cycle >= c.m_wake_at) return;
    c.m_wake_at = cycle;
    m_wakes.push({cycle, m_wake_order++, &c});
    if (!m_in_edge) schedule_edge(cycle);
}

void ClockDomain::on_edge() {
    m_scheduled = ~uint64_t{0};
    m_in_edge = true;
    m_current = cycle();
    m_any_edge = true;
    // Timed wakes due now join the active set.
    while (!m_wakes.empty() && m_wakes.top().cycle <= m_current) {
        Wake w = m_wakes.top();
        m_wakes.pop();
        if (w.c->m_wake_at != w.cycle) continue;  // superseded by an earlier wake
        w.c->m_wake_at = ~uint64_t{0};
        if (!w.c->m_active) {
            w.c->m_active = true;
            m_active.push_back(w.c);
        }
    }
    if (!m_active.empty()) ++m_busy_edges;
    size_t keep = 0;
    for (size_t i = 0; i < m_active.size(); ++i) {
        Clocked* c = m_active[i];
        ++m_ticks;
        c->m_poked = false;
        bool again = false;
        try {
            again = c->tick(m_current);
        } catch (...) {
            record_failure(std::current_exception());
            m_in_edge = false;
            return;
        }
        if (again || c->m_poked)
            m_active[keep++] = c;
        else
            c->m_active = false;
    }
    m_active.resize(keep);
    // Components activated during this edge are ticked from the next edge on.
    for (Clocked* c : m_next) m_active.push_back(c);
    m_next.clear();
    m_in_edge = false;
    if (!m_active.empty())
        schedule_edge(m_current + 1);
    else if (!m_wakes.empty())
        schedule_edge(std::max(m_wakes.top().cycle, m_current + 1));
}

}  // namespace stacksim::sim
