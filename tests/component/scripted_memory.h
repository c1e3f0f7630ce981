// SPDX-License-Identifier: Apache-2.0
// Test bench memory target: programmable latency, withheld END_REQ, reordering, request log.
#pragma once
#include <cstdint>
#include <functional>
#include <queue>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "sim/clock_domain.h"
#include "sim/mem_extension.h"

namespace stacksim::test {

/// One request as the scripted memory saw it. Cycles are cycles of the memory's clock domain.
struct RecordedRequest {
    static constexpr uint64_t kNever = ~uint64_t{0};
    uint64_t addr = 0;
    uint32_t bytes = 0;  ///< data_length
    tlm::tlm_command command = tlm::TLM_IGNORE_COMMAND;
    // MemExtension fields (zero when the payload carries none).
    uint32_t sector_mask = 0;
    sim::MemAccess access = sim::MemAccess::Read;
    uint32_t source = 0;
    uint32_t warp = 0;
    uint64_t issue_cycle = 0;
    // What the memory did with it.
    uint64_t arrival_cycle = 0;          ///< BEGIN_REQ
    uint64_t accept_cycle = kNever;      ///< END_REQ (the arrival cycle unless withheld)
    uint64_t response_cycle = kNever;    ///< BEGIN_RESP
};

/// A memory target for component benches, speaking the project's TLM base protocol on
/// `upstream`: BEGIN_REQ is accepted at once (TLM_UPDATED + END_REQ) or, when the hold
/// script or hold() says so, answered TLM_ACCEPTED with END_REQ sent later on the backward
/// path; BEGIN_RESP follows `latency` cycles after END_REQ and must be answered
/// TLM_COMPLETED. Per-request latencies may answer requests out of order. Every request is
/// recorded, and anything that breaks the protocol is listed in violations().
/// Functional data is not touched (payloads carry timing only).
class ScriptedMemory : public sc_core::sc_module, public sim::Clocked {
public:
    /// Cycles of request `index` (arrival order) from its END_REQ to its BEGIN_RESP, or, for
    /// a hold script, cycles its END_REQ is withheld after arrival (0 = accepted at once).
    using Script = std::function<uint64_t(const RecordedRequest& r, size_t index)>;

    tlm_utils::simple_target_socket<ScriptedMemory> upstream;

    ScriptedMemory(sc_core::sc_module_name name, sim::ClockDomain& clock, uint64_t latency = 100);

    /// Every request from now on is answered `cycles` after its END_REQ.
    void set_latency(uint64_t cycles);
    void set_latency(Script latency) { m_latency = std::move(latency); }
    /// Withholds END_REQ of each arriving request for the cycles `hold` returns.
    void set_hold(Script hold) { m_hold = std::move(hold); }
    /// Withholds END_REQ of every request arriving from now on until release().
    void hold() { m_holding = true; }
    /// Stops holding; a request waiting for END_REQ gets it on the next memory cycle. May be
    /// called from outside the simulation (between sc_start calls).
    void release();

    const std::vector<RecordedRequest>& requests() const { return m_requests; }
    /// Requests of one access kind, in arrival order.
    std::vector<RecordedRequest> requests(sim::MemAccess access) const;
    /// Request indices in the order their responses were sent.
    const std::vector<size_t>& response_order() const { return m_response_order; }
    /// Requests received but not yet answered.
    size_t outstanding() const { return m_requests.size() - m_response_order.size(); }
    /// The most requests ever outstanding at once.
    size_t max_outstanding() const { return m_max_outstanding; }
    /// Base-protocol breaches seen, one message each (empty when the initiator behaved).
    const std::vector<std::string>& violations() const { return m_violations; }

    bool tick(uint64_t cycle) override;

private:
    struct Due {
        uint64_t cycle;
        uint64_t order;
        size_t index;
        bool operator>(const Due& o) const { return cycle != o.cycle ? cycle > o.cycle : order > o.order; }
    };
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase, sc_core::sc_time& delay);
    /// END_REQ of request `index` at `cycle`: schedules its response.
    void accept(size_t index, uint64_t cycle);

    sim::ClockDomain& m_clock;
    Script m_latency;
    Script m_hold;
    bool m_holding = false;
    std::vector<RecordedRequest> m_requests;
    std::vector<tlm::tlm_generic_payload*> m_payloads;  ///< by index, until answered
    static constexpr size_t kNone = ~size_t{0};
    size_t m_unaccepted = kNone;                          ///< request waiting for END_REQ
    uint64_t m_accept_at = RecordedRequest::kNever;       ///< its END_REQ cycle (kNever: until release())
    std::priority_queue<Due, std::vector<Due>, std::greater<Due>> m_due;
    uint64_t m_order = 0;
    std::vector<size_t> m_response_order;
    size_t m_max_outstanding = 0;
    std::vector<std::string> m_violations;
};

}  // namespace stacksim::test
