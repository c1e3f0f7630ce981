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

}  // namespace stacksim::memory
