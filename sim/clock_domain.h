// SPDX-License-Identifier: Apache-2.0
// One clock domain: a single SC_METHOD that ticks only the active components.
#pragma once
#include <cstdint>
#include <queue>
#include <vector>

#include <systemc>

#include "sim/clocked.h"

namespace stacksim::sim {

/// Ticks registered components on its clock edges. Sleeps (no SystemC activity at all) while
/// no component is active, until activate() or the earliest wake_at() cycle.
/// Components are ticked in activation order, which keeps runs deterministic.
class ClockDomain : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(ClockDomain);
    /// `period_ps`: clock period in picoseconds.
    ClockDomain(sc_core::sc_module_name name, uint64_t period_ps);

    /// Ticks `c` from the next edge on (from this edge if called before it is processed
    /// from outside a tick). Idempotent.
    void activate(Clocked& c);
    /// Wakes `c` at domain cycle `cycle` (a later cycle than the current one). Only the
    /// earliest pending request of a component is kept: a component re-arms its next wake
    /// each time it goes to sleep.
    void wake_at(Clocked& c, uint64_t cycle);

    /// The current cycle: the last edge at or before now.
    uint64_t cycle() const;
    uint64_t period_ps() const { return m_period_ps; }
    sc_core::sc_time period() const { return m_period; }
    /// Edges on which at least one component was ticked.
    uint64_t busy_edges() const { return m_busy_edges; }
    /// Component ticks performed.
    uint64_t ticks() const { return m_ticks; }

private:
    void on_edge();
    void schedule_edge(uint64_t cycle);
    uint64_t cycle_at_or_after_now() const;

    struct Wake {
        uint64_t cycle;
        uint64_t order;
        Clocked* c;
        bool operator>(const Wake& o) const {
            return cycle != o.cycle ? cycle > o.cycle : order > o.order;
        }
    };

    uint64_t m_period_ps;
    sc_core::sc_time m_period;
    sc_core::sc_event m_edge;
    std::vector<Clocked*> m_active;
    std::vector<Clocked*> m_next;
    std::priority_queue<Wake, std::vector<Wake>, std::greater<Wake>> m_wakes;
    uint64_t m_wake_order = 0;
    uint64_t m_scheduled = ~uint64_t{0};  ///< cycle of the pending edge notification
    bool m_in_edge = false;
    uint64_t m_current = 0;
    bool m_any_edge = false;  ///< an edge has been processed (m_current is valid)
    uint64_t m_busy_edges = 0;
    uint64_t m_ticks = 0;
};

}  // namespace stacksim::sim
