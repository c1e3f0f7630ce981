// SPDX-License-Identifier: Apache-2.0
// The target socket of a module served by many initiators: per-initiator END_REQ back-pressure.
#include "sim/multi_target_port.h"

#include <algorithm>

#include "sim/port_protocol.h"

namespace stacksim::sim {

MultiTargetPort::MultiTargetPort(const char* name)
    : tlm_utils::multi_passthrough_target_socket<MultiTargetPort>(name) {
    register_nb_transport_fw(this, &MultiTargetPort::nb_transport_fw);
}

void MultiTargetPort::fit(int port) {
    // The number of bound initiators is known once elaboration is over: size on first use.
    const size_t n = std::max<size_t>(size(), static_cast<size_t>(port) + 1);
    if (m_withheld.size() < n) {
        m_withheld.resize(n, nullptr);
        m_response.resize(n, nullptr);
    }
}

void MultiTargetPort::admit(int port) {
    tlm::tlm_generic_payload* p = withheld(port);
    if (!p) protocol_error(*this, "admit(): initiator " + std::to_string(port) + " has no withheld request");
    m_withheld[static_cast<size_t>(port)] = nullptr;
    m_order.erase(std::find(m_order.begin(), m_order.end(), port));
    end_request(port, *p);
}

void MultiTargetPort::end_request(int port, tlm::tlm_generic_payload& p) { send_end_req(*(*this)[port], p); }

bool MultiTargetPort::respond(int port, tlm::tlm_generic_payload& p) {
    fit(port);
    tlm::tlm_generic_payload*& pending = m_response[static_cast<size_t>(port)];
    if (pending) protocol_error(*this, "BEGIN_RESP to initiator " + std::to_string(port) + " before its END_RESP");
    if (send_begin_resp(*this, *(*this)[port], p)) return true;
    if (!m_end_resp)
        protocol_error(*this, "initiator " + std::to_string(port) +
                                  " answered BEGIN_RESP with TLM_ACCEPTED; responses must be completed at once");
    pending = &p;
    return false;
}

tlm::tlm_sync_enum MultiTargetPort::nb_transport_fw(int port, tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                                    sc_core::sc_time& delay) {
    require_zero_delay(*this, delay);
    fit(port);
    const auto i = static_cast<size_t>(port);
    if (phase == tlm::END_RESP && m_end_resp) {
        if (m_response[i] != &p) protocol_error(*this, "END_RESP for a response that does not wait for it");
        m_response[i] = nullptr;
        m_end_resp(port, p);
        return tlm::TLM_COMPLETED;
    }
    if (phase != tlm::BEGIN_REQ)
        unexpected_phase(*this, "nb_transport_fw", phase, m_end_resp ? "BEGIN_REQ, END_RESP" : "BEGIN_REQ");
    if (m_withheld[i])
        protocol_error(*this, "BEGIN_REQ from initiator " + std::to_string(port) +
                                  " while its earlier request still waits for END_REQ");
    if (m_admit(port, p)) {
        phase = tlm::END_REQ;
        return tlm::TLM_UPDATED;
    }
    m_withheld[i] = &p;
    m_order.push_back(port);
    return tlm::TLM_ACCEPTED;
}

}  // namespace stacksim::sim
