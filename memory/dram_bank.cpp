// SPDX-License-Identifier: Apache-2.0
// One DRAM bank's state machine: open row and the earliest legal cycle of each command.
#include "memory/dram_bank.h"

#include <algorithm>

namespace stacksim::memory {

void DramBank::activate(uint64_t cycle, uint64_t row) {
    m_open = true;
    m_row = row;
    m_col_ok = cycle + m_t->tRCD;
    m_pre_ok = std::max(m_pre_ok, cycle + m_t->tRAS);
    m_act_ok = std::max(m_act_ok, cycle + m_t->tRC);
}

void DramBank::read(uint64_t cycle) {
    m_pre_ok = std::max(m_pre_ok, cycle + m_t->tRTP);
}

void DramBank::write(uint64_t cycle) {
    m_pre_ok = std::max(m_pre_ok, cycle + m_t->tWL + m_burst + m_t->tWR);
}

void DramBank::precharge(uint64_t cycle) {
    m_open = false;
    m_act_ok = std::max(m_act_ok, cycle + m_t->tRP);
}

void DramBank::refresh(uint64_t cycle, uint64_t duration) {
    m_open = false;
    m_act_ok = std::max(m_act_ok, cycle + duration);
}

}  // namespace stacksim::memory
