// SPDX-License-Identifier: Apache-2.0
// The initiator socket of a module that sends to one target: send, can_send, responses.
#include "sim/initiator_port.h"

namespace stacksim::sim {

InitiatorPort::InitiatorPort(const char* name) : tlm::tlm_initiator_socket<>(name) { m_export.bind(m_backward); }

bool InitiatorPort::send(tlm::tlm_generic_payload& p) {
    switch (m_link.send(*this, *operator->(), p)) {
    case InitiatorLink::Sent::Accepted: return true;
    case InitiatorLink::Sent::Withheld: return false;
    case InitiatorLink::Sent::Completed: break;
    }
    m_response(p);
    return true;
}

tlm::tlm_sync_enum InitiatorPort::Backward::nb_transport_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                                            sc_core::sc_time& delay) {
    return m_port.m_link.backward(m_port, p, phase, delay, [this] { m_port.end_req(); },
                                  [this, &p] { m_port.m_response(p); });
}

}  // namespace stacksim::sim
