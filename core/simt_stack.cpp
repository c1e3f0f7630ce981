// SPDX-License-Identifier: Apache-2.0
// Per-warp SIMT reconvergence stack (immediate post-dominator reconvergence).
#include "core/simt_stack.h"

namespace stacksim::core {

void SimtStack::reset(uint32_t pc, uint32_t mask) {
    m_entries.clear();
    if (mask) m_entries.push_back({pc, kNoTarget, mask});
}

void SimtStack::pop_reconverged() {
    while (!m_entries.empty() && m_entries.back().pc == m_entries.back().rpc) m_entries.pop_back();
}

void SimtStack::advance(uint32_t next_pc) {
    m_entries.back().pc = next_pc;
    pop_reconverged();
}

bool SimtStack::branch(uint32_t pc, uint32_t target, uint32_t rpc, uint32_t taken) {
    SimtEntry& top = m_entries.back();
    const uint32_t active = top.mask;
    taken &= active;
    const uint32_t not_taken = active & ~taken;
    const uint32_t fallthrough = pc + 1;
    if (not_taken == 0 || taken == 0) {
        top.pc = taken ? target : fallthrough;
        pop_reconverged();
        return false;
    }
    const uint32_t outer_rpc = top.rpc;
    top.pc = rpc;  // the current entry waits at the reconvergence point
    const bool nowhere = rpc == kNoTarget;
    // With no post-dominator but the exit, the waiting entry can never be reached again;
    // drop it so the two sides run to their exits. A call entry stays: it marks the call
    // until every lane has returned (its pc is never executed again).
    if (nowhere && outer_rpc != kCallReturn) m_entries.pop_back();
    // Inside a call the sides end by ret (never by reconverging); they are not call entries.
    const uint32_t side_rpc = nowhere ? (outer_rpc == kCallReturn ? kNoTarget : outer_rpc) : rpc;
    if (target != rpc) m_entries.push_back({target, side_rpc, taken});
    if (fallthrough != rpc) m_entries.push_back({fallthrough, side_rpc, not_taken});
    pop_reconverged();
    return true;
}

void SimtStack::exit(uint32_t exited) {
    for (auto& e : m_entries) e.mask &= ~exited;
    while (!m_entries.empty() && m_entries.back().mask == 0) m_entries.pop_back();
    pop_reconverged();
}

void SimtStack::call(uint32_t pc, uint32_t target, uint32_t redo, uint32_t callee) {
    m_entries.back().pc = pc + 1;
    if (redo) m_entries.push_back({pc, pc + 1, redo});
    m_entries.push_back({target, kCallReturn, callee});
}

void SimtStack::ret(uint32_t lanes) {
    for (size_t i = m_entries.size(); i-- > 0;) {
        m_entries[i].mask &= ~lanes;
        if (m_entries[i].rpc == kCallReturn) break;
    }
    while (!m_entries.empty() && m_entries.back().mask == 0) m_entries.pop_back();
    pop_reconverged();
}

size_t SimtStack::call_depth() const {
    size_t n = 0;
    for (const SimtEntry& e : m_entries) n += e.rpc == kCallReturn;
    return n;
}

}  // namespace stacksim::core
