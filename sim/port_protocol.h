// SPDX-License-Identifier: Apache-2.0
// Rules shared by the TLM port helpers: protocol errors, zero-delay END_REQ and BEGIN_RESP.
#pragma once
#include <string>

#include <systemc>
#include <tlm>

namespace stacksim::sim {

/// Throws the SimulationError (exit code 3) of a protocol violation seen by `socket`; the
/// message starts with the socket's full name, which names its module. Thrown inside an
/// nb_transport call, it unwinds into the caller's tick and ClockDomain carries it out of
/// sc_start() (sim/failure.h).
[[noreturn]] void protocol_error(const sc_core::sc_object& socket, const std::string& what);
/// protocol_error() for a phase `socket` does not accept in `call`; `accepted` lists those it does.
[[noreturn]] void unexpected_phase(const sc_core::sc_object& socket, const char* call, const tlm::tlm_phase& phase,
                                   const char* accepted);
/// Every call carries zero annotated delay (timing comes from the clock domains): any other
/// delay is a protocol error.
inline void require_zero_delay(const sc_core::sc_object& socket, const sc_core::sc_time& delay) {
    if (delay != sc_core::SC_ZERO_TIME) protocol_error(socket, "non-zero annotated delay " + delay.to_string());
}

/// Sends END_REQ for `p` on `bw` with zero delay; the initiator's answer (TLM_ACCEPTED) is not used.
void send_end_req(tlm::tlm_bw_transport_if<>& bw, tlm::tlm_generic_payload& p);
/// Sets TLM_OK_RESPONSE and sends BEGIN_RESP on `bw` with zero delay. Returns true when the
/// response phase ended (TLM_COMPLETED, or TLM_UPDATED with END_RESP), false when the initiator
/// answered TLM_ACCEPTED (it sends END_RESP later); any other answer is a protocol error.
bool send_begin_resp(const sc_core::sc_object& socket, tlm::tlm_bw_transport_if<>& bw, tlm::tlm_generic_payload& p);

}  // namespace stacksim::sim
