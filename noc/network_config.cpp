// SPDX-License-Identifier: Apache-2.0
// Declared parameters and validation of a router network's configuration.
#include "noc/network_config.h"

#include <fmt/format.h>

#include "noc/allocator.h"
#include "noc/layer_policy.h"
#include "noc/routing.h"
#include "noc/topology.h"
#include "sim/error.h"

namespace stacksim::noc {

const sim::Params<NetworkConfig>& NetworkConfig::params() {
    using C = NetworkConfig;
    static const auto p = [] {
        sim::Params<C> p;
        p.add("topology", &C::topology, "", "mesh (concentrated when concentration > 1) or stacked (2.5D)")
            .one_of(topologies());
        p.add("width", &C::width, "cores", "cores per row (upper layer columns); 0: automatic (GPU interconnect)")
            .range(0, 256);
        p.add("height", &C::height, "cores", "cores per column (upper layer rows); 0: automatic (GPU interconnect)")
            .range(0, 256);
        p.add("concentration", &C::concentration, "",
              "mesh: c x c cores per router; stacked: c x c upper routers per interposer router; 0: automatic")
            .range(0, 4);
        p.add("memory_controllers", &C::memory_controllers, "controllers",
              "memory controllers on two opposite edges (the interposer's when stacked)")
            .range(0, 64);
        p.add("memory_channels", &C::memory_channels, "channels", "network terminals (router ports) per controller")
            .range(1, 4);
        p.add("memory_placement", &C::memory_placement, "", "edges the controllers sit on")
            .one_of({"west_east", "north_south"});
        p.add("vcs", &C::vcs, "VCs", "virtual channels per port, half for requests, half for replies").range(2, 12);
        p.add("buffer_depth", &C::buffer_depth, "flits", "flits per VC buffer").range(1, 1024);
        p.add("pipeline_stages", &C::pipeline_stages, "stages", "router pipeline depth").range(3, 16);
        p.add("allocator_iterations", &C::allocator_iterations, "iterations",
              "VC and switch allocators: 1 separable, more: iSLIP iterations")
            .range(1, 4);
        p.add("link_latency", &C::link_latency, "cycles", "cycles per router-to-router link").range(1, 64);
        p.add("route_stage", &C::route_stage, "",
              "arrival: the stages beyond 3 count from a head flit's buffer arrival; head: they are a per-packet "
              "route computation starting when the head reaches the front of its VC, and body flits bid for the "
              "switch from their arrival (BookSim's iq router)")
            .one_of({"arrival", "head"});
        p.add("credit_delay", &C::credit_delay, "cycles",
              "cycles a credit takes to return beyond the link latency (BookSim's credit_delay)")
            .range(0, 64);
        p.add("routing", &C::routing, "", "routing function on each layer (XY-Z / YX-Z when stacked)")
            .one_of(routing_functions());
        p.policy("layer_policy", &C::layer_policy, layer_policies(),
                 "which layer coherence packets take (stacked topology)");
        return p;
    }();
    return p;
}

void NetworkConfig::validate() const {
    auto fail = [](const char* key, const std::string& m) { throw sim::ConfigError(std::string(key) + ": " + m); };
    if (!topologies().contains(topology)) {
        std::string known;
        for (const auto& n : topologies().names()) known += (known.empty() ? "" : ", ") + n;
        fail("topology", fmt::format("unknown topology '{}' (known: {})", topology, known));
    }
    if (width < 1 || width > 256) fail("width", fmt::format("{} is out of range 1..256", width));
    if (height < 1 || height > 256) fail("height", fmt::format("{} is out of range 1..256", height));
    if (concentration < 1 || concentration > 4) fail("concentration", fmt::format("{} is out of range 1..4", concentration));
    if (width % concentration || height % concentration)
        fail("concentration", fmt::format("{} does not divide the {}x{} core grid", concentration, width, height));
    if (topology == "stacked" && concentration < 2)
        fail("concentration", "the stacked topology needs at least 2 (upper routers per interposer router side)");
    if (memory_controllers > 64) fail("memory_controllers", fmt::format("{} is out of range 0..64", memory_controllers));
    if (memory_placement != "west_east" && memory_placement != "north_south")
        fail("memory_placement", fmt::format("unknown placement '{}' (known: west_east, north_south)", memory_placement));
    if (memory_channels < 1 || memory_channels > 4) fail("memory_channels", fmt::format("{} is out of range 1..4", memory_channels));
    const unsigned across = memory_placement == "west_east" ? width / concentration : height / concentration;
    if (memory_controllers > 1 && across < 2)
        fail("memory_controllers", "need at least two router columns (rows) for two opposite edges");
    if (vcs < kMessageClasses || vcs > 12 || vcs % kMessageClasses != 0)
        fail("vcs", fmt::format("{} must be an even number in 2..12 (request and reply VC sets)", vcs));
    if (buffer_depth < 1 || buffer_depth > 1024) fail("buffer_depth", fmt::format("{} is out of range 1..1024", buffer_depth));
    if (pipeline_stages < 3 || pipeline_stages > 16)
        fail("pipeline_stages", fmt::format("{} is out of range 3..16", pipeline_stages));
    if (allocator_iterations < 1 || allocator_iterations > 4)
        fail("allocator_iterations", fmt::format("{} is out of range 1..4", allocator_iterations));
    if (link_latency < 1 || link_latency > 64) fail("link_latency", fmt::format("{} is out of range 1..64", link_latency));
    if (!routing_functions().contains(routing))
        fail("routing", fmt::format("unknown routing function '{}'", routing));
    if (topology != "stacked" && layer_policy.name != "dor")
        fail("layer_policy",
             fmt::format("'{}' needs the stacked topology (a {} has one layer)", layer_policy.name, topology));
    auto t = Topology::build(*this);
    for (unsigned r = 0; r < t->routers(); ++r)
        if (t->ports(r) * vcs > kMaxAllocPorts)
            fail("vcs", fmt::format("{} VCs x {} ports of router {} exceed the 128 input VCs a router supports", vcs,
                                    t->ports(r), r));
}

}  // namespace stacksim::noc
