// SPDX-License-Identifier: Apache-2.0
// Rules shared by the TLM port helpers: protocol errors, zero-delay END_REQ and BEGIN_RESP.
#include "sim/port_protocol.h"

#include "sim/error.h"

namespace stacksim::sim {

void protocol_error(const sc_core::sc_object& socket, const std::string& what) {
    throw SimulationError(std::string(socket.name()) + ": TLM protocol error: " + what);
}

void unexpected_phase(const sc_core::sc_object& socket, const char* call, const tlm::tlm_phase& phase,
                      const char* accepted) {
    protocol_error(socket, std::string("unexpected phase ") + phase.get_name() + " in " + call + " (accepts " +
                               accepted + ")");
}

void send_end_req(tlm::tlm_bw_transport_if<>& bw, tlm::tlm_generic_payload& p) {
    tlm::tlm_phase phase = tlm::END_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    bw.nb_transport_bw(p, phase, delay);
}

bool send_begin_resp(const sc_core::sc_object& socket, tlm::tlm_bw_transport_if<>& bw, tlm::tlm_generic_payload& p) {
    p.set_response_status(tlm::TLM_OK_RESPONSE);
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    switch (bw.nb_transport_bw(p, phase, delay)) {
    case tlm::TLM_COMPLETED: return true;
    case tlm::TLM_ACCEPTED:
        if (phase != tlm::BEGIN_RESP) unexpected_phase(socket, "the answer to BEGIN_RESP", phase, "BEGIN_RESP");
        return false;
    case tlm::TLM_UPDATED:
        if (phase != tlm::END_RESP) unexpected_phase(socket, "the answer to BEGIN_RESP", phase, "END_RESP");
        return true;
    }
    return true;
}

}  // namespace stacksim::sim
