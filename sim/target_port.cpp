// SPDX-License-Identifier: Apache-2.0
// The target socket of a module served by one initiator: bounded input queue, END_REQ back-pressure.
#include "sim/target_port.h"

#include "sim/port_protocol.h"

namespace stacksim::sim {

TargetPort::TargetPort(const char* name, size_t depth) : tlm::tlm_target_socket<>(name), m_queue(depth) {
    bind(m_forward);
}

bool TargetPort::admit_withheld() {
    tlm::tlm_generic_payload* p = m_queue.admit_withheld();
    if (!p) return false;
    send_end_req(*operator->(), *p);
    return true;
}

void TargetPort::respond(tlm::tlm_generic_payload& p) {
    if (!send_begin_resp(*this, *operator->(), p))
        protocol_error(*this,
                       "the initiator answered BEGIN_RESP with TLM_ACCEPTED; responses must be completed at once");
}

tlm::tlm_sync_enum TargetPort::Forward::nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                                        sc_core::sc_time& delay) {
    if (phase != tlm::BEGIN_REQ) unexpected_phase(m_port, "nb_transport_fw", phase, "BEGIN_REQ");
    require_zero_delay(m_port, delay);
    if (m_port.m_queue.has_withheld())
        protocol_error(m_port, "BEGIN_REQ while an earlier request still waits for its END_REQ");
    if (m_port.m_on_request) m_port.m_on_request();
    if (!m_port.m_queue.offer(p)) return tlm::TLM_ACCEPTED;
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
}

void TargetPort::Forward::b_transport(tlm::tlm_generic_payload&, sc_core::sc_time&) {
    protocol_error(m_port, "b_transport: only the non-blocking base protocol is supported");
}

bool TargetPort::Forward::get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) { return false; }

unsigned int TargetPort::Forward::transport_dbg(tlm::tlm_generic_payload&) { return 0; }

}  // namespace stacksim::sim
