// SPDX-License-Identifier: Apache-2.0
// Replays a Netrace trace on a network, injecting each packet only after its dependencies.
#pragma once
#include "sim/param.h"
#include <cstdint>
#include <string>

#include "noc/network.h"

namespace stacksim::noc {

/// What a trace replay measured.
struct ReplayResult {
    uint64_t packets = 0;            ///< packets in the trace
    uint64_t delivered = 0;          ///< packets ejected
    uint64_t cycles = 0;             ///< cycle of the last ejection (the trace's runtime)
    uint64_t trace_cycles = 0;       ///< the trace's own cycle count (header)
    uint64_t delayed = 0;            ///< packets injected after their trace cycle (dependencies)
    uint64_t flit_hops = 0;
    double packet_latency = 0;       ///< mean, cycles
    double hops = 0;                 ///< mean router-to-router links
    uint64_t memory_packets = 0;     ///< packets to or from a memory controller
    uint64_t diverted_packets = 0;   ///< coherence packets the layer policy sent over the interposer
    bool complete = false;           ///< every packet delivered within the cycle cap
    double wall_seconds = 0;
};

/// Replays the Netrace file `path` on a network built from `net` (its cores must cover the
/// trace's nodes; when it has memory controllers, packets from or to a trace memory-controller
/// node use the controller nearest to that node). A packet is created at its trace cycle, or when the last packet it depends on has
/// been ejected if that is later. Packets are `bytes / flit_bytes` flits (rounded up);
/// response types travel in the reply message class. Stops after `max_cycles`. Throws
/// sim::InputError (naming the file) for a bad file or record (NetraceReader::next), a trace
/// with more nodes than the mesh, a packet due at or after `max_cycles`, and packets that wait
/// for packets that can never be delivered (a dependency cycle).
/// With `speedup` k > 1 every trace cycle is divided by k (dependencies still hold), which
/// raises the offered load k-fold: a way to load the network with a light trace.
/// Replay settings ([trace] of `stacksim noc --trace`).
struct ReplayConfig {
    uint32_t flit_bytes = 16;  ///< packet bytes per flit
    double speedup = 1.0;      ///< trace cycles are divided by this
    /// The declared parameters ([trace]).
    static const sim::Params<ReplayConfig>& params();
};

ReplayResult replay_netrace(const std::string& path, const NetworkConfig& net, uint32_t flit_bytes = 16,
                            uint64_t max_cycles = 100'000'000, double speedup = 1.0);

}  // namespace stacksim::noc
