// SPDX-License-Identifier: Apache-2.0
// Flits and packets of the cycle-level virtual-channel router network.
#pragma once
#include <cstdint>

namespace stacksim::noc {

/// Protocol message classes; each owns a disjoint set of VCs so replies never wait behind requests.
enum class MessageClass : uint8_t { Request = 0, Reply = 1 };
/// Number of message classes (VCs are split evenly among them).
constexpr unsigned kMessageClasses = 2;

/// One flow-control unit. Copied by value into preallocated buffers (no heap on the hot path).
struct Flit {
    uint64_t packet = 0;         ///< packet id
    uint64_t inject_cycle = 0;   ///< cycle the packet was created (entered its injection queue)
    uint64_t network_cycle = 0;  ///< cycle the head flit left the injection queue into the network
    uint32_t src = 0;            ///< source node
    uint32_t dst = 0;            ///< destination node
    uint16_t hops = 0;           ///< router-to-router links traversed so far
    /// Head flits: mean cycles per router so far, 8.8 fixed point (DLL's field, updated as
    /// L = (L_last x hop + t_out - t_in) / (hop + 1) when the head leaves each router).
    uint16_t hop_latency = 0;
    uint8_t vc = 0;              ///< VC at the buffer the flit is in / heading to
    MessageClass mclass = MessageClass::Request;
    bool head = false;
    bool tail = false;
    bool measured = false;  ///< created inside the measurement window
    bool lower = false;     ///< 2.5D: crosses the interposer (memory traffic or diverted)
};

/// A packet waiting in a node's injection queue.
struct Packet {
    uint64_t id = 0;
    uint64_t inject_cycle = 0;  ///< creation cycle
    uint32_t src = 0;
    uint32_t dst = 0;
    uint32_t flits = 1;  ///< size in flits (>= 1)
    MessageClass mclass = MessageClass::Request;
    bool measured = false;
    bool lower = false;  ///< set at injection: memory traffic, or diverted by the layer policy
};

}  // namespace stacksim::noc
