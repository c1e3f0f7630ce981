// SPDX-License-Identifier: Apache-2.0
// The request-phase state of one initiator-to-target link, shared by the initiator ports.
#pragma once
#include <cstdint>

#include <systemc>
#include <tlm>

#include "sim/port_protocol.h"

namespace stacksim::sim {

/// What send() and the backward path do for one link (InitiatorPort, MultiInitiatorPort):
/// BEGIN_REQ with zero delay, blocked until END_REQ, BEGIN_RESP answered TLM_COMPLETED.
/// `socket` names the port in protocol errors.
class InitiatorLink {
public:
    /// How a send() ended.
    enum class Sent : uint8_t {
        Accepted,   ///< TLM_UPDATED/END_REQ: the next request may go at once
        Withheld,   ///< TLM_ACCEPTED: blocked until END_REQ arrives on the backward path
        Completed,  ///< TLM_COMPLETED or TLM_UPDATED/BEGIN_RESP: the response came at once
    };

    bool can_send() const { return !m_blocked; }

    /// Sends BEGIN_REQ for `p` on `fw`. The link counts as blocked during the call, so an
    /// END_REQ that arrives re-entrantly unblocks it (and send() then returns Withheld).
    Sent send(const sc_core::sc_object& socket, tlm::tlm_fw_transport_if<>& fw, tlm::tlm_generic_payload& p) {
        if (m_blocked) protocol_error(socket, "send() while the previous request waits for END_REQ");
        m_blocked = &p;
        tlm::tlm_phase phase = tlm::BEGIN_REQ;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        switch (fw.nb_transport_fw(p, phase, delay)) {
        case tlm::TLM_ACCEPTED:
            if (phase != tlm::BEGIN_REQ) unexpected_phase(socket, "the answer to BEGIN_REQ", phase, "BEGIN_REQ");
            return Sent::Withheld;
        case tlm::TLM_UPDATED:
            if (phase == tlm::END_REQ) {
                m_blocked = nullptr;
                return Sent::Accepted;
            }
            if (phase != tlm::BEGIN_RESP)
                unexpected_phase(socket, "the answer to BEGIN_REQ", phase, "END_REQ, BEGIN_RESP");
            break;
        case tlm::TLM_COMPLETED:
            break;
        }
        m_blocked = nullptr;
        return Sent::Completed;
    }

    /// The backward path: END_REQ unblocks and calls `end_req()`; BEGIN_RESP (which implies
    /// END_REQ for a blocked request) calls `response()` and is answered TLM_COMPLETED.
    template <typename EndReq, typename Response>
    tlm::tlm_sync_enum backward(const sc_core::sc_object& socket, tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                const sc_core::sc_time& delay, EndReq&& end_req, Response&& response) {
        require_zero_delay(socket, delay);
        if (phase == tlm::END_REQ) {
            if (&p != m_blocked) protocol_error(socket, "END_REQ for a request that does not wait for it");
            m_blocked = nullptr;
            end_req();
            return tlm::TLM_ACCEPTED;
        }
        if (phase != tlm::BEGIN_RESP) unexpected_phase(socket, "nb_transport_bw", phase, "END_REQ, BEGIN_RESP");
        if (&p == m_blocked) {
            m_blocked = nullptr;
            end_req();
        }
        response();
        return tlm::TLM_COMPLETED;
    }

private:
    tlm::tlm_generic_payload* m_blocked = nullptr;  ///< sent, waiting for END_REQ
};

}  // namespace stacksim::sim
