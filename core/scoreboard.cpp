// SPDX-License-Identifier: Apache-2.0
// Per-warp scoreboard: registers with a write in flight.
#include "core/scoreboard.h"

namespace stacksim::core {

void Scoreboard::reset(uint32_t num_regs) {
    m_pending.assign(num_regs, 0);
    m_count = 0;
}

void Scoreboard::reserve(const Instruction& inst, bool from_memory) {
    for (unsigned i = 0; i < inst.num_writes; ++i) {
        uint8_t& p = m_pending[inst.writes[i]];
        if (!p) ++m_count;
        p = from_memory ? 2 : 1;
    }
}

void Scoreboard::release(uint16_t reg) {
    uint8_t& p = m_pending[reg];
    if (p) {
        p = 0;
        --m_count;
    }
}

Hazard Scoreboard::check(const Instruction& inst) const {
    if (m_count == 0) return Hazard::None;
    uint8_t worst = 0;
    for (unsigned i = 0; i < inst.num_reads; ++i) worst |= m_pending[inst.reads[i]];
    for (unsigned i = 0; i < inst.num_writes; ++i) worst |= m_pending[inst.writes[i]];
    if (worst & 2) return Hazard::Memory;
    return worst ? Hazard::Execution : Hazard::None;
}

}  // namespace stacksim::core
