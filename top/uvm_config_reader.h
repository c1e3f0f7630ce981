// SPDX-License-Identifier: Apache-2.0
// Reads the [uvm] section (unified memory) of a configuration.
#pragma once
#include "memory/uvm_config.h"
#include "sim/config.h"

namespace stacksim::top {

/// Reads every [uvm] key into `u` and validates it; throws ConfigError naming file, line and key.
void read_uvm_config(sim::ConfigSection s, memory::UvmConfig& u);

}  // namespace stacksim::top
