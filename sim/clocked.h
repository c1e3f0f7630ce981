// SPDX-License-Identifier: Apache-2.0
// Interface of a component ticked by a ClockDomain.
#pragma once
#include <cstdint>

namespace stacksim::sim {

class ClockDomain;

/// A component with per-cycle work. The domain ticks it only while it is active.
class Clocked {
public:
    virtual ~Clocked() = default;
    /// Does one cycle of work at domain cycle `cycle`. Returns true to be ticked again next
    /// cycle, false to sleep until ClockDomain::activate() or wake_at() wakes it.
    virtual bool tick(uint64_t cycle) = 0;

private:
    friend class ClockDomain;
    bool m_active = false;
    bool m_poked = false;  ///< activated during its own tick
    uint64_t m_wake_at = ~uint64_t{0};
};

}  // namespace stacksim::sim
