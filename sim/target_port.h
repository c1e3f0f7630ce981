// SPDX-License-Identifier: Apache-2.0
// The target socket of a module served by one initiator: bounded input queue, END_REQ back-pressure.
#pragma once
#include <cstddef>
#include <functional>

#include <systemc>
#include <tlm>

#include "sim/request_queue.h"

namespace stacksim::sim {

/// A target socket that owns its module's side of the base protocol (docs/protocol.md), so
/// the module only takes requests from a queue and answers them:
/// * BEGIN_REQ is queued and answered TLM_UPDATED/END_REQ while fewer than `depth` requests
///   wait; otherwise it is withheld (TLM_ACCEPTED) until admit_withheld() finds a free slot
///   and sends its END_REQ on the backward path.
/// * respond() sends BEGIN_RESP; the initiator must complete it (TLM_COMPLETED).
/// * Every call, both ways, carries zero annotated delay.
/// * Any other incoming phase, a non-zero delay, a second BEGIN_REQ before the withheld one's
///   END_REQ, or blocking transport is a protocol error (SimulationError naming the socket).
/// Binds to one initiator socket, like tlm_utils::simple_target_socket.
class TargetPort : public tlm::tlm_target_socket<> {
public:
    /// `depth`: requests the queue holds (at least 1).
    TargetPort(const char* name, size_t depth);

    /// Called on every BEGIN_REQ before it is queued or withheld (owners activate their clock).
    void on_request(std::function<void()> hook) { m_on_request = std::move(hook); }

    bool empty() const { return m_queue.empty(); }
    /// Queued requests (the withheld one not counted).
    size_t size() const { return m_queue.size(); }
    size_t depth() const { return m_queue.depth(); }
    /// The oldest queued request; requires !empty().
    tlm::tlm_generic_payload& front() const { return *m_queue.front(); }
    /// Removes front(); the module now owns the request until it responds.
    void pop() { m_queue.pop_front(); }
    /// A request waits for its END_REQ.
    bool has_withheld() const { return m_queue.has_withheld(); }
    /// Queues the withheld request if a slot is free and sends its END_REQ. True if it did.
    bool admit_withheld();
    /// Sends BEGIN_RESP for `p` (status TLM_OK_RESPONSE), zero delay.
    void respond(tlm::tlm_generic_payload& p);

private:
    class Forward : public tlm::tlm_fw_transport_if<> {
    public:
        explicit Forward(TargetPort& port) : m_port(port) {}
        tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                           sc_core::sc_time& delay) override;
        void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) override;
        bool get_direct_mem_ptr(tlm::tlm_generic_payload& p, tlm::tlm_dmi& dmi) override;
        unsigned int transport_dbg(tlm::tlm_generic_payload& p) override;

    private:
        TargetPort& m_port;
    };

    Forward m_forward{*this};
    RequestQueue m_queue;
    std::function<void()> m_on_request;
};

}  // namespace stacksim::sim
