// SPDX-License-Identifier: Apache-2.0
// The SM-to-memory-partition interconnect as a router network (mesh or 2.5D stacked): a drop-in
// for the crossbar with the same sockets and protocol.
#pragma once
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>

#include "common/address_map.h"
#include "noc/interconnect_config.h"
#include "noc/network.h"
#include "sim/clock_domain.h"
#include "sim/multi_initiator_port.h"
#include "sim/multi_target_port.h"
#include "sim/stats.h"

namespace stacksim::noc {

/// SM i (upstream port i) is core terminal i of the network; memory partition j (downstream
/// port j) is memory-controller terminal j. A request from port i becomes a Request-class packet
/// to the terminal of partition_of(address) (header only for reads, header + data for writes and
/// atomics); its response a Reply-class packet back (header + data for reads and atomics).
/// Packets are ceil(bytes / flit_bytes) flits. When a packet's tail is ejected it is handed on
/// (BEGIN_REQ to the partition, BEGIN_RESP to the SM); a receiver that withholds END_REQ
/// (END_RESP) keeps it, and the packets behind it, at that terminal without returning their
/// ejection credits, so the network backs up (NetworkConfig::eject_credits). An SM with
/// `queue_depth` requests inside the network has END_REQ withheld (docs/protocol.md). Sleeps
/// whenever the network is empty and nothing can be handed on.
class NetworkInterconnect : public sc_core::sc_module, public sim::Clocked {
public:
    sim::MultiTargetPort upstream;        ///< port i: SM i's L1 (or SM), core terminal i
    sim::MultiInitiatorPort downstream;   ///< port j: memory partition j, memory-controller terminal j

    /// `net` is the resolved network (NocInterconnectConfig::network()); it needs at least as
    /// many cores as SMs bind upstream and exactly map.partitions memory controllers.
    NetworkInterconnect(sc_core::sc_module_name name, const NocInterconnectConfig& cfg, const NetworkConfig& net,
                        const common::AddressMap& map, sim::ClockDomain& clock, sim::StatRegistry& stats);

    bool tick(uint64_t cycle) override;
    const Network& network() const { return m_net; }
    /// Most flits ever held (ejected but not yet accepted) at one terminal VC.
    uint32_t max_held_flits() const { return m_max_held; }

private:
    struct InFlight {
        tlm::tlm_generic_payload* p;
        uint32_t flits;
        bool response;
    };
    /// A packet ejected at a terminal, waiting to be handed on (front first).
    struct Held {
        uint64_t packet;
        tlm::tlm_generic_payload* p;
        uint32_t flits;
        uint8_t vc;
        bool offered;  ///< handed on; waiting for END_REQ / END_RESP
        bool response;
        uint64_t since;
    };

    void end_of_elaboration() override;
    /// BEGIN_REQ from SM `sm`: true when it entered the network, false when withheld.
    bool admit(uint32_t sm, tlm::tlm_generic_payload& p);
    /// A response from partition `port`: back to its SM.
    void response(int port, tlm::tlm_generic_payload& p);
    /// The front packet held at `terminal` is the offered `p`: it was accepted.
    void accepted_if_front(uint32_t terminal, const tlm::tlm_generic_payload& p);
    uint32_t flits(const tlm::tlm_generic_payload& p, bool response) const;
    void send(tlm::tlm_generic_payload& p, uint32_t src, uint32_t dst, bool response);
    void request(uint32_t sm, tlm::tlm_generic_payload& p);
    /// The front packet held at `terminal` was accepted: return its credits, go on with the next.
    void accepted(uint32_t terminal);
    /// Hands on the front packet held at `terminal`, if it is not already offered.
    void offer(uint32_t terminal, uint64_t cycle);
    void list(uint32_t terminal);

    NocInterconnectConfig m_cfg;
    common::AddressMap m_map;
    sim::ClockDomain& m_clock;
    Network m_net;
    uint32_t m_cores, m_sms = 0;
    uint64_t m_next_id = 1;
    std::unordered_map<uint64_t, InFlight> m_packets;                 ///< by packet id
    std::unordered_map<tlm::tlm_generic_payload*, uint32_t> m_source;  ///< request -> SM port
    std::vector<std::deque<Held>> m_held;                              ///< per terminal
    std::vector<uint32_t> m_held_flits;                                ///< per terminal x VC
    std::vector<uint32_t> m_held_list;                                 ///< terminals with held packets
    std::vector<uint8_t> m_held_listed;
    std::vector<uint32_t> m_in_network;                                ///< per SM: requests not yet accepted
    std::vector<Flit> m_tails;                                         ///< tails ejected this tick
    uint32_t m_max_held = 0;

    sim::Counter m_requests, m_responses, m_request_flits, m_response_flits, m_request_bytes, m_response_bytes;
    sim::Counter m_input_blocked, m_held_cycles;
    sim::Average m_request_latency, m_response_latency;                ///< creation -> tail ejected
    sim::Average m_request_net_latency, m_response_net_latency;        ///< head injected -> tail ejected
};

}  // namespace stacksim::noc
