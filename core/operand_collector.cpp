// SPDX-License-Identifier: Apache-2.0
// Operand collector: banked register file reads that delay dispatch on bank conflicts.
#include "core/operand_collector.h"

#include <algorithm>

namespace stacksim::core {

OperandCollector::OperandCollector(uint32_t banks, uint32_t units)
    : m_banks(banks ? banks : 1), m_bank_free(m_banks, 0), m_unit_free(units ? units : 1, 0) {}

bool OperandCollector::unit_free(uint64_t cycle) const {
    for (uint64_t f : m_unit_free)
        if (f <= cycle) return true;
    return false;
}

uint64_t OperandCollector::next_unit_free() const {
    return *std::min_element(m_unit_free.begin(), m_unit_free.end());
}

uint64_t OperandCollector::collect(const Instruction& inst, uint32_t warp, uint64_t cycle) {
    uint64_t ready = cycle + 1;
    for (unsigned i = 0; i < inst.num_reads; ++i) {
        uint16_t r = inst.reads[i];
        if (r == inst.guard) continue;
        uint64_t& bank = m_bank_free[(r + warp) % m_banks];
        uint64_t t = std::max(cycle, bank);
        m_conflicts += t - cycle;
        bank = t + 1;
        ready = std::max(ready, t + 1);
    }
    auto unit = std::min_element(m_unit_free.begin(), m_unit_free.end());
    *unit = ready;
    return ready;
}

}  // namespace stacksim::core
