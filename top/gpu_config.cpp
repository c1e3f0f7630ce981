// SPDX-License-Identifier: Apache-2.0
// Declared parameters and validation of the GPU-level settings's configuration.
#include "top/run_config.h"

#include <fmt/format.h>

#include "sim/error.h"

namespace stacksim::top {

void GpuConfig::validate() const {
    if (num_sms == 0 || num_sms > 1024) throw sim::ConfigError("num_sms: must be in 1..1024");
    if (!(core_clock_mhz > 0)) throw sim::ConfigError("core_clock_mhz: must be positive");
    if (watchdog_cycles == 0) throw sim::ConfigError("watchdog_cycles: must be positive");
}

}  // namespace stacksim::top
