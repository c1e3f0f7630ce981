// SPDX-License-Identifier: Apache-2.0
// Declared parameters and validation of the fixed-latency memory's configuration.
#include "memory/simple_memory_config.h"

#include <fmt/format.h>

#include "sim/error.h"

namespace stacksim::memory {

void SimpleMemoryConfig::validate() const {
    if (!(clock_mhz > 0)) throw sim::ConfigError("clock_mhz: must be positive");
    if (!(bandwidth_gbps > 0)) throw sim::ConfigError("bandwidth_gbps: must be positive");
    if (queue_depth == 0) throw sim::ConfigError("queue_depth: must be positive");
}

const sim::Params<SimpleMemoryConfig>& SimpleMemoryConfig::params() {
    using C = SimpleMemoryConfig;
    static const auto p = [] {
        sim::Params<C> p;
        p.add("clock_mhz", &C::clock_mhz, "MHz", "memory clock; latency counts its cycles").range(1.0, 100000.0);
        p.add("latency", &C::latency, "cycles", "cycles from the end of a request's transfer to its response")
            .range(0, 10000000);
        p.add("bandwidth_gbps", &C::bandwidth_gbps, "GB/s",
              "peak bandwidth (10^9 bytes/s); each request occupies the bus for its bytes")
            .range(0.001, 1000000.0);
        p.add("queue_depth", &C::queue_depth, "requests", "requests held; a full queue withholds END_REQ")
            .range(1, 1u << 20);
        return p;
    }();
    return p;
}

}  // namespace stacksim::memory
