// SPDX-License-Identifier: Apache-2.0
// Declared parameters and validation of the router network used as the GPU interconnect's configuration.
#include "noc/interconnect_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sim/error.h"

namespace stacksim::noc {

const sim::Params<NocInterconnectConfig>& NocInterconnectConfig::params() {
    using C = NocInterconnectConfig;
    static const auto p = [] {
        sim::Params<C> p;
        p.add("clock_mhz", &C::clock_mhz, "MHz", "network clock").range(1.0, 100000.0);
        p.embed(&C::network, {"topology", "memory_controllers", "memory_channels", "layer_policy"});
        p.add("flit_bytes", &C::flit_bytes, "bytes", "bytes per flit (a packet of B bytes is ceil(B / flit_bytes) flits)")
            .range(4, 1024);
        p.add("header_bytes", &C::header_bytes, "bytes", "address/command bytes of every packet").range(0, 256);
        p.add("queue_depth", &C::queue_depth, "requests",
              "requests one SM may have inside the network; beyond it END_REQ is withheld")
            .range(1, 65536);
        return p;
    }();
    return p;
}

void NocInterconnectConfig::validate() const {}

NetworkConfig NocInterconnectConfig::network_for(const std::string& topology, unsigned sms, unsigned partitions,
                                                 unsigned max_data_bytes) const {
    NetworkConfig n = network;
    n.topology = topology;
    const bool stacked = topology == "stacked";
    const unsigned c = network.concentration ? network.concentration : (stacked ? 2u : 1u);
    unsigned w = network.width, h = network.height;
    auto round_up = [](unsigned v, unsigned m) { return (v + m - 1) / m * m; };
    if (w == 0) {
        // Near-square, at least two router columns (west and east edges for the memory controllers).
        w = static_cast<unsigned>(std::ceil(std::sqrt(static_cast<double>(std::max(1u, sms)))));
        if (h) w = std::max(w, (sms + h - 1) / h);
        w = std::max(round_up(w, c), 2 * c);
    }
    if (h == 0) h = std::max(round_up((sms + w - 1) / w, c), c);
    if (uint64_t{w} * h < sms)
        throw sim::ConfigError(fmt::format("{}: a {}x{} grid has {} cores for {} SMs (gpu.num_sms); make width x height "
                                           "at least {} or set both to 0 (automatic)",
                                           network.width ? "width" : "height", w, h, w * h, sms, sms));
    n.width = w;
    n.height = h;
    n.concentration = c;
    n.memory_controllers = partitions;
    n.memory_channels = 1;
    n.layer_policy = sim::PolicySpec("dor");
    // A terminal must be able to hold the largest packet while its receiver refuses it.
    const unsigned largest = (header_bytes + max_data_bytes + flit_bytes - 1) / flit_bytes;
    n.eject_credits = std::max({1u, largest, network.buffer_depth});
    n.validate();
    return n;
}

}  // namespace stacksim::noc
