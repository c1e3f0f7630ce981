// SPDX-License-Identifier: Apache-2.0
// Test bench memory target: programmable latency, withheld END_REQ, reordering, request log.
#include "tests/component/scripted_memory.h"

#include <algorithm>

#include <fmt/format.h>

namespace stacksim::test {

ScriptedMemory::ScriptedMemory(sc_core::sc_module_name name, sim::ClockDomain& clock, uint64_t latency)
    : sc_module(name), upstream("upstream"), m_clock(clock) {
    upstream.register_nb_transport_fw(this, &ScriptedMemory::nb_transport_fw);
    set_latency(latency);
}

void ScriptedMemory::set_latency(uint64_t cycles) {
    m_latency = [cycles](const RecordedRequest&, size_t) { return cycles; };
}

void ScriptedMemory::release() {
    m_holding = false;
    if (m_unaccepted != kNone) {
        m_accept_at = 0;
        m_clock.activate(*this);
    }
}

std::vector<RecordedRequest> ScriptedMemory::requests(sim::MemAccess access) const {
    std::vector<RecordedRequest> out;
    for (const RecordedRequest& r : m_requests)
        if (r.access == access) out.push_back(r);
    return out;
}

tlm::tlm_sync_enum ScriptedMemory::nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                                   sc_core::sc_time&) {
    const uint64_t now = m_clock.cycle();
    if (phase == tlm::END_RESP) return tlm::TLM_COMPLETED;  // only if a BEGIN_RESP was not completed
    if (phase != tlm::BEGIN_REQ) {
        m_violations.push_back(fmt::format("cycle {}: unexpected phase {} on the forward path", now,
                                           static_cast<int>(phase)));
        return tlm::TLM_COMPLETED;
    }
    if (m_unaccepted != kNone)
        m_violations.push_back(fmt::format("cycle {}: BEGIN_REQ of 0x{:x} while request {} waits for END_REQ", now,
                                           p.get_address(), m_unaccepted));
    RecordedRequest r;
    r.addr = p.get_address();
    r.bytes = p.get_data_length();
    r.command = p.get_command();
    sim::MemExtension* e = nullptr;
    p.get_extension(e);
    if (e) {
        r.sector_mask = e->sector_mask;
        r.access = e->access;
        r.source = e->source;
        r.warp = e->warp;
        r.issue_cycle = e->issue_cycle;
    }
    r.arrival_cycle = now;
    const size_t index = m_requests.size();
    m_requests.push_back(r);
    if (p.has_mm()) p.acquire();  // kept until the response has been delivered
    m_payloads.push_back(&p);
    m_max_outstanding = std::max(m_max_outstanding, outstanding());

    const uint64_t hold = m_holding ? RecordedRequest::kNever : m_hold ? m_hold(r, index) : 0;
    if (hold == 0) {
        accept(index, now);
        phase = tlm::END_REQ;
        return tlm::TLM_UPDATED;
    }
    m_unaccepted = index;
    m_accept_at = hold == RecordedRequest::kNever ? hold : now + hold;
    if (m_accept_at != RecordedRequest::kNever) m_clock.wake_at(*this, m_accept_at);
    return tlm::TLM_ACCEPTED;
}

void ScriptedMemory::accept(size_t index, uint64_t cycle) {
    RecordedRequest& r = m_requests[index];
    r.accept_cycle = cycle;
    const uint64_t due = cycle + m_latency(r, index);
    m_due.push({due, m_order++, index});
    if (due <= cycle)
        m_clock.activate(*this);
    else
        m_clock.wake_at(*this, due);
}

bool ScriptedMemory::tick(uint64_t cycle) {
    if (m_unaccepted != kNone && m_accept_at <= cycle) {
        const size_t index = m_unaccepted;
        m_unaccepted = kNone;
        m_accept_at = RecordedRequest::kNever;
        tlm::tlm_phase phase = tlm::END_REQ;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        if (upstream->nb_transport_bw(*m_payloads[index], phase, delay) != tlm::TLM_ACCEPTED)
            m_violations.push_back(fmt::format("cycle {}: END_REQ of request {} not answered TLM_ACCEPTED", cycle, index));
        accept(index, cycle);
    }
    while (!m_due.empty() && m_due.top().cycle <= cycle) {
        const size_t index = m_due.top().index;
        m_due.pop();
        tlm::tlm_generic_payload* p = m_payloads[index];
        m_payloads[index] = nullptr;
        m_requests[index].response_cycle = cycle;
        m_response_order.push_back(index);
        p->set_response_status(tlm::TLM_OK_RESPONSE);
        tlm::tlm_phase phase = tlm::BEGIN_RESP;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        if (upstream->nb_transport_bw(*p, phase, delay) != tlm::TLM_COMPLETED)
            m_violations.push_back(fmt::format("cycle {}: BEGIN_RESP of request {} not answered TLM_COMPLETED", cycle, index));
        if (p->has_mm()) p->release();
    }
    uint64_t next = m_due.empty() ? RecordedRequest::kNever : m_due.top().cycle;
    if (m_unaccepted != kNone) next = std::min(next, m_accept_at);
    if (next != RecordedRequest::kNever) m_clock.wake_at(*this, std::max(next, cycle + 1));
    return false;
}

}  // namespace stacksim::test
