// SPDX-License-Identifier: Apache-2.0
// Declared parameters and validation of the SM-to-partition crossbar's configuration.
#include "noc/crossbar_config.h"

#include <fmt/format.h>

#include "sim/error.h"

namespace stacksim::noc {

void CrossbarConfig::validate() const {
    if (!(clock_mhz > 0)) throw sim::ConfigError("clock_mhz: must be positive");
    if (width_bytes == 0) throw sim::ConfigError("width_bytes: must be positive");
    if (queue_depth == 0) throw sim::ConfigError("queue_depth: must be positive");
}

}  // namespace stacksim::noc
