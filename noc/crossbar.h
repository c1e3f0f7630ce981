// SPDX-License-Identifier: Apache-2.0
// Crossbar between the SMs' L1s (upstream ports) and the memory partitions (downstream ports).
#pragma once
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>

#include "common/address_map.h"
#include "noc/crossbar_config.h"
#include "sim/clock_domain.h"
#include "sim/multi_initiator_port.h"
#include "sim/multi_target_port.h"
#include "sim/stats.h"

namespace stacksim::noc {

/// Requests from upstream port i go to downstream port partition_of(address) and responses
/// come back to port i. Each input port queues up to `queue_depth` requests (then withholds
/// END_REQ); each output port and each upstream return port moves one packet at a time,
/// ceil((header + data) / width) cycles per packet (requests carry data for writes, responses
/// for reads), after `latency` cycles in the switch; a packet is handed on when its last
/// byte has crossed the port. A downstream port that withholds END_REQ
/// blocks only its own output (docs/protocol.md). Sleeps whenever nothing is due.
class Crossbar : public sc_core::sc_module, public sim::Clocked {
public:
    sim::MultiTargetPort upstream;        ///< port i: SM i's L1 (or SM)
    sim::MultiInitiatorPort downstream;   ///< port j: memory partition j

    Crossbar(sc_core::sc_module_name name, const CrossbarConfig& cfg, const common::AddressMap& map,
             sim::ClockDomain& clock, sim::StatRegistry& stats);

    bool tick(uint64_t cycle) override;

private:
    struct Packet {
        tlm::tlm_generic_payload* p;
        uint64_t ready;  ///< cycle it may leave its queue
        uint32_t port;   ///< destination port
    };
    void end_of_elaboration() override;
    /// BEGIN_REQ from upstream `port`: true when queued, false when withheld (queue full).
    bool request(int port, tlm::tlm_generic_payload& p);
    void enqueue(uint32_t port, tlm::tlm_generic_payload& p, uint64_t cycle);
    uint64_t occupancy(const tlm::tlm_generic_payload& p, bool response) const;

    CrossbarConfig m_cfg;
    common::AddressMap m_map;
    sim::ClockDomain& m_clock;
    std::vector<std::deque<Packet>> m_in;          ///< per upstream port: requests
    std::vector<uint64_t> m_out_free;              ///< per downstream port: next free cycle
    std::vector<Packet> m_out_tx;                  ///< per downstream port: packet being serialised
    std::vector<Packet> m_ret_tx;                  ///< per upstream port: response being serialised
    std::vector<std::deque<Packet>> m_ret;         ///< per upstream port: responses
    std::vector<uint64_t> m_ret_free;              ///< per upstream port: next free cycle
    std::unordered_map<tlm::tlm_generic_payload*, uint32_t> m_source;  ///< request -> upstream port
    // Ports with work, so that a crossbar with many idle ports costs only for the busy ones.
    std::vector<uint32_t> m_in_ports, m_ret_ports;
    std::vector<uint8_t> m_in_listed, m_ret_listed;
    void list(std::vector<uint32_t>& ports, std::vector<uint8_t>& listed, uint32_t port) {
        if (!listed[port]) {
            listed[port] = 1;
            ports.push_back(port);
        }
    }
    std::vector<std::pair<uint32_t, tlm::tlm_generic_payload*>> m_arrived;  ///< responses from partitions

    sim::Counter m_requests, m_responses, m_request_bytes, m_response_bytes, m_blocked_cycles;
    uint64_t m_worked = 0;  ///< cycles the crossbar has worked (CrossbarPriority::Worked)
};

}  // namespace stacksim::noc
