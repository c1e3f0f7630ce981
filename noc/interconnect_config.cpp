// SPDX-License-Identifier: Apache-2.0
// Declared parameters and validation of the router network used as the GPU interconnect's configuration.
#include "noc/interconnect_config.h"

#include <fmt/format.h>

#include "sim/error.h"

namespace stacksim::noc {

void NocInterconnectConfig::validate() const {
    if (!(clock_mhz > 0)) throw sim::ConfigError("clock_mhz: must be positive");
    if (width > 256) throw sim::ConfigError(fmt::format("width: {} is out of range 0..256 (0: automatic)", width));
    if (height > 256) throw sim::ConfigError(fmt::format("height: {} is out of range 0..256 (0: automatic)", height));
    if (concentration > 4)
        throw sim::ConfigError(fmt::format("concentration: {} is out of range 0..4 (0: automatic)", concentration));
    if (routing != "xy" && routing != "yx")
        throw sim::ConfigError(fmt::format("routing: unknown routing '{}' (known: xy, yx)", routing));
    if (flit_bytes < 4 || flit_bytes > 1024) throw sim::ConfigError(fmt::format("flit_bytes: {} is out of range 4..1024", flit_bytes));
    if (header_bytes > 256) throw sim::ConfigError(fmt::format("header_bytes: {} is out of range 0..256", header_bytes));
    if (queue_depth == 0) throw sim::ConfigError("queue_depth: must be positive");
    // vcs, buffer_depth, pipeline_stages and link_latency are checked by NetworkConfig::validate().
}

NetworkConfig NocInterconnectConfig::network(const std::string& topology, unsigned sms, unsigned partitions,
                                             unsigned max_data_bytes) const {
    NetworkConfig n;
    n.topology = topology;
    const bool stacked = topology == "stacked";
    const unsigned c = concentration ? concentration : (stacked ? 2u : 1u);
    unsigned w = width, h = height;
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
                                           width ? "width" : "height", w, h, w * h, sms, sms));
    n.width = w;
    n.height = h;
    n.concentration = c;
    n.memory_controllers = partitions;
    n.vcs = vcs;
    n.buffer_depth = buffer_depth;
    n.pipeline_stages = pipeline_stages;
    n.link_latency = link_latency;
    n.routing = routing;
    // A terminal must be able to hold the largest packet while its receiver refuses it.
    const unsigned largest = (header_bytes + max_data_bytes + flit_bytes - 1) / flit_bytes;
    n.eject_credits = std::max({1u, largest, buffer_depth});
    n.validate();
    return n;
}

}  // namespace stacksim::noc
