// SPDX-License-Identifier: Apache-2.0
// Layer selection of the 2.5D network: which layer a coherence packet takes (interface, registry).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "noc/flit.h"
#include "sim/registry.h"
#include "sim/stats.h"

namespace stacksim::noc {

class Topology;
class Router;

/// What a policy may look at: the topology and the routers' buffer occupancy.
struct LayerPolicyEnv {
    const Topology& topology;
    const std::vector<std::unique_ptr<Router>>& routers;
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
    /// Registers the policy's own counters under `group`.
    virtual void register_stats(sim::StatGroup& /*group*/) const {}
};

using LayerPolicyRegistry = sim::Registry<LayerPolicy, const LayerPolicyEnv&>;
/// Layer policies by name (noc.layer_policy), each in noc/layer_policy_*.cpp with its
/// parameters ([noc.dll], ...).
LayerPolicyRegistry& layer_policies();

/// A head flit's per-hop latency as the destination records it: whole cycles, saturated.
inline unsigned recorded_hop_latency(const Flit& head, unsigned saturate) {
    unsigned l = head.hop_latency >> 8;
    return l > saturate ? saturate : l;
}

}  // namespace stacksim::noc
