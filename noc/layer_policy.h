// SPDX-License-Identifier: Apache-2.0
// Layer selection of the 2.5D network: which layer a coherence packet takes (registry).
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "noc/flit.h"
#include "sim/registry.h"
#include "sim/stats.h"

namespace stacksim::noc {

class Topology;
class Router;
class LatencyRing;

/// Layer-selection settings ([noc.policy] keys). Latencies are mean cycles per router hop.
struct LayerPolicyConfig {
    std::string name = "dor";          ///< layer_policy_registry() name
    double local_buffer_threshold = 0.6;  ///< LocalBuf: occupancy fraction that marks a router congested
    unsigned local_congested_nodes = 1;   ///< LocalBuf: divert when more than this many grid routers are congested
    double latency_threshold = 8.0;    ///< DestDetect/DLL: divert when upper - lower exceeds this, cycles
    double interposer_limit = 8.0;     ///< DLL: ... and the interposer's mean is below this, cycles
    unsigned fifo_entries = 5;         ///< DestDetect/DLL: recent latencies kept per layer
    unsigned saturate = 15;            ///< DLL: per-hop latency field saturates here (4 bits)
    unsigned ring_links = 4;           ///< DLL ring: parallel links (target grid's top bits pick one)
    unsigned ring_hop_cycles = 2;      ///< DLL ring: cycles per hop (one register per link and stop)
    unsigned ring_buffer = 4;          ///< DLL ring: congestion messages queued per grid; more are dropped
    /// Throws sim::ConfigError("key: message").
    void validate() const;
};

/// What a policy may look at: the topology and the routers' buffer occupancy.
struct LayerPolicyEnv {
    const Topology& topology;
    const std::vector<std::unique_ptr<Router>>& routers;
    const LayerPolicyConfig& cfg;
};

/// Decides, at the source, whether a coherence packet crosses the interposer (memory packets
/// always do). Sees every head flit that reaches its destination.
class LayerPolicy {
public:
    virtual ~LayerPolicy() = default;
    /// A coherence packet from terminal `src` to `dst` starts injection at `cycle`: true sends it
    /// down at the source's grid and up at the destination's.
    virtual bool divert(unsigned src, unsigned dst, uint64_t cycle) = 0;
    /// A head flit reached its destination terminal.
    virtual void received(const Flit& /*head*/, uint64_t /*cycle*/) {}
    /// Background hardware (the DLL ring) has work.
    virtual bool busy() const { return false; }
    /// One cycle of background hardware; called every cycle while busy().
    virtual void tick(uint64_t /*cycle*/) {}
    /// The policy's latency ring (DLL), else null.
    virtual const LatencyRing* ring() const { return nullptr; }
    /// Registers the policy's own counters under `group`.
    virtual void register_stats(sim::StatGroup& /*group*/) const {}
};

using LayerPolicyRegistry = sim::Registry<LayerPolicy, const LayerPolicyEnv&>;
/// "dor", "localbuf", "destdetect", "dll".
const LayerPolicyRegistry& layer_policy_registry();

/// A head flit's per-hop latency as the destination records it: whole cycles, saturated.
inline unsigned recorded_hop_latency(const Flit& head, unsigned saturate) {
    unsigned l = head.hop_latency >> 8;
    return l > saturate ? saturate : l;
}

}  // namespace stacksim::noc
