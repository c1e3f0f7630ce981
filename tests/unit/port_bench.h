// SPDX-License-Identifier: Apache-2.0
// Test modules for the TLM port helpers: clocked port users, and raw sockets driven call by call.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "sim/clock_domain.h"
#include "sim/initiator_port.h"
#include "sim/payload_pool.h"
#include "sim/target_port.h"

namespace stacksim::test {

/// Sends `count` requests (tag = index) through an InitiatorPort as fast as END_REQ allows and
/// records what came back, in cycles of its clock.
struct PortInitiator : sc_core::sc_module, sim::Clocked {
    sim::InitiatorPort downstream{"downstream"};
    sim::ClockDomain& clock;
    sim::PayloadPool pool;
    uint32_t count = 0;
    uint32_t sent = 0;
    std::vector<bool> accepted_at_once;             ///< send()'s answer, by tag
    std::vector<uint64_t> end_req;                  ///< cycles END_REQ arrived
    std::map<uint32_t, uint64_t> response;          ///< tag -> cycle answered
    std::map<uint32_t, sc_core::sc_time> response_time;

    PortInitiator(sc_core::sc_module_name n, sim::ClockDomain& c) : sc_module(n), clock(c) {
        downstream.on_end_req([this] {
            end_req.push_back(clock.cycle());
            clock.activate(*this);
        });
        downstream.on_response([this](tlm::tlm_generic_payload& p) {
            const uint32_t tag = sim::PayloadPool::ext(p).tag;
            response[tag] = clock.cycle();
            response_time[tag] = sc_core::sc_time_stamp();
            p.release();
        });
    }
    void start(uint32_t n) {
        count = n;
        clock.activate(*this);
    }
    bool tick(uint64_t) override {
        while (sent < count && downstream.can_send()) {
            tlm::tlm_generic_payload& p = pool.acquire();
            p.set_address(uint64_t{sent} * 128);
            p.set_data_length(32);
            sim::PayloadPool::ext(p).tag = sent++;
            accepted_at_once.push_back(downstream.send(p));
        }
        return false;
    }
};

/// Queues requests in a TargetPort of `depth`; from cycle `serve_from` on takes one request a
/// cycle out of the queue and answers it `latency` cycles later.
struct PortTarget : sc_core::sc_module, sim::Clocked {
    sim::TargetPort upstream;
    sim::ClockDomain& clock;
    uint64_t serve_from;
    uint64_t latency;
    uint32_t arrivals = 0;                          ///< BEGIN_REQs seen by the hook
    std::vector<uint32_t> served;                   ///< tags, in the order taken out
    std::map<uint32_t, sc_core::sc_time> responded; ///< tag -> time BEGIN_RESP was sent
    std::deque<std::pair<uint64_t, tlm::tlm_generic_payload*>> pending;

    PortTarget(sc_core::sc_module_name n, sim::ClockDomain& c, size_t depth, uint64_t from, uint64_t lat)
        : sc_module(n), upstream("upstream", depth), clock(c), serve_from(from), latency(lat) {
        upstream.on_request([this] {
            ++arrivals;
            clock.activate(*this);
        });
    }
    bool tick(uint64_t cycle) override {
        while (!pending.empty() && pending.front().first <= cycle) {
            tlm::tlm_generic_payload& p = *pending.front().second;
            pending.pop_front();
            responded[sim::PayloadPool::ext(p).tag] = sc_core::sc_time_stamp();
            upstream.respond(p);
        }
        if (cycle >= serve_from && !upstream.empty()) {
            served.push_back(sim::PayloadPool::ext(upstream.front()).tag);
            pending.emplace_back(cycle + latency, &upstream.front());
            upstream.pop();
        }
        upstream.admit_withheld();
        return !pending.empty() || !upstream.empty();
    }
};

/// An initiator driven call by call from the test; logs what arrives on its backward path and
/// answers BEGIN_RESP with `resp_answer` (TLM_ACCEPTED: it sends END_RESP later itself).
struct RawInitiator : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<RawInitiator> socket{"socket"};
    std::vector<std::pair<std::string, tlm::tlm_generic_payload*>>* log = nullptr;
    tlm::tlm_sync_enum resp_answer = tlm::TLM_COMPLETED;

    explicit RawInitiator(sc_core::sc_module_name n) : sc_module(n) {
        socket.register_nb_transport_bw(this, &RawInitiator::bw);
    }
    /// One nb_transport_fw call; returns its answer and leaves the phase in `phase`.
    tlm::tlm_sync_enum call(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                            sc_core::sc_time delay = sc_core::SC_ZERO_TIME) {
        return socket->nb_transport_fw(p, phase, delay);
    }
    tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase, sc_core::sc_time&) {
        if (log) log->emplace_back(std::string(name()) + " " + phase.get_name(), &p);
        return phase == tlm::BEGIN_RESP ? resp_answer : tlm::TLM_ACCEPTED;
    }
};

/// A target driven call by call from the test: answers BEGIN_REQ with `answer` and `phase`
/// (TLM_ACCEPTED: END_REQ later through end_req()); with `end_req_inside`, it sends END_REQ on
/// the backward path before returning.
struct RawTarget : sc_core::sc_module {
    tlm_utils::simple_target_socket<RawTarget> socket{"socket"};
    tlm::tlm_sync_enum answer = tlm::TLM_UPDATED;
    tlm::tlm_phase answer_phase = tlm::END_REQ;
    bool end_req_inside = false;
    std::vector<tlm::tlm_generic_payload*> received;

    explicit RawTarget(sc_core::sc_module_name n) : sc_module(n) {
        socket.register_nb_transport_fw(this, &RawTarget::fw);
    }
    tlm::tlm_sync_enum fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase, sc_core::sc_time&) {
        received.push_back(&p);
        if (end_req_inside) backward(p, tlm::END_REQ);
        if (answer != tlm::TLM_ACCEPTED) phase = answer_phase;
        return answer;
    }
    /// Sends `phase` for `p` on the backward path with `delay`; returns the initiator's answer.
    tlm::tlm_sync_enum backward(tlm::tlm_generic_payload& p, tlm::tlm_phase phase,
                                sc_core::sc_time delay = sc_core::SC_ZERO_TIME) {
        return socket->nb_transport_bw(p, phase, delay);
    }
};

/// Elaborates what was built so far without advancing time, so test code may call sockets.
inline void finish_elaboration() { sc_core::sc_start(sc_core::SC_ZERO_TIME); }

}  // namespace stacksim::test
