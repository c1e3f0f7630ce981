// SPDX-License-Identifier: Apache-2.0
// The initiator socket of a module that sends to one target: send, can_send, responses.
#pragma once
#include <functional>

#include <systemc>
#include <tlm>

#include "sim/initiator_link.h"

namespace stacksim::sim {

/// An initiator socket that owns its module's side of the base protocol (docs/protocol.md):
/// * send() issues BEGIN_REQ with zero delay. A target that answers TLM_ACCEPTED withholds
///   END_REQ: can_send() is false until END_REQ arrives, and then on_end_req() is called.
/// * BEGIN_RESP on the backward path goes to on_response() and is answered TLM_COMPLETED
///   (no response back-pressure); a target that completes a request at once (TLM_COMPLETED,
///   or TLM_UPDATED/BEGIN_RESP) has its response delivered the same way, inside send().
/// * Any other incoming phase, a non-zero delay or an END_REQ for a request that did not wait
///   for one is a protocol error (SimulationError naming the socket).
/// Binds to one target socket, like tlm_utils::simple_initiator_socket.
class InitiatorPort : public tlm::tlm_initiator_socket<> {
public:
    explicit InitiatorPort(const char* name);

    /// Called when a withheld request's END_REQ arrives (also when its BEGIN_RESP comes first).
    void on_end_req(std::function<void()> hook) { m_end_req = std::move(hook); }
    /// Called with each response; the module owns the payload again (required).
    void on_response(std::function<void(tlm::tlm_generic_payload&)> hook) { m_response = std::move(hook); }

    /// No request waits for its END_REQ.
    bool can_send() const { return m_link.can_send(); }
    /// Sends `p` (requires can_send()). True when its request phase ended at once (END_REQ in
    /// the answer, or an immediate response); false when END_REQ comes later (on_end_req()).
    bool send(tlm::tlm_generic_payload& p);

private:
    class Backward : public tlm::tlm_bw_transport_if<> {
    public:
        explicit Backward(InitiatorPort& port) : m_port(port) {}
        tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                           sc_core::sc_time& delay) override;
        void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}

    private:
        InitiatorPort& m_port;
    };
    void end_req() {
        if (m_end_req) m_end_req();
    }

    Backward m_backward{*this};
    InitiatorLink m_link;
    std::function<void()> m_end_req;
    std::function<void(tlm::tlm_generic_payload&)> m_response;
};

}  // namespace stacksim::sim
