// SPDX-License-Identifier: Apache-2.0
// The initiator socket of a module that sends to many targets: per-target send, can_send, responses.
#include "sim/multi_initiator_port.h"

#include <algorithm>

namespace stacksim::sim {

MultiInitiatorPort::MultiInitiatorPort(const char* name)
    : tlm_utils::multi_passthrough_initiator_socket<MultiInitiatorPort>(name) {
    register_nb_transport_bw(this, &MultiInitiatorPort::nb_transport_bw);
}

InitiatorLink& MultiInitiatorPort::link(int port) {
    // The number of bound targets is known once elaboration is over: size on first use.
    const size_t i = static_cast<size_t>(port);
    if (i >= m_links.size()) m_links.resize(std::max<size_t>(size(), i + 1));
    return m_links[i];
}

bool MultiInitiatorPort::send(int port, tlm::tlm_generic_payload& p) {
    switch (link(port).send(*this, *(*this)[port], p)) {
    case InitiatorLink::Sent::Accepted: return true;
    case InitiatorLink::Sent::Withheld: return false;
    case InitiatorLink::Sent::Completed: break;
    }
    m_response(port, p);
    return true;
}

tlm::tlm_sync_enum MultiInitiatorPort::nb_transport_bw(int port, tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                                       sc_core::sc_time& delay) {
    return link(port).backward(
        *this, p, phase, delay, [&] { if (m_end_req) m_end_req(port, p); }, [&] { m_response(port, p); });
}

}  // namespace stacksim::sim
