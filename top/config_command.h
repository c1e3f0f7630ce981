// SPDX-License-Identifier: Apache-2.0
// `stacksim config`: the configuration keys, documented, and a config's effective values.
#pragma once
#include <string>
#include <vector>

namespace stacksim::top {

/// `stacksim config --list [SECTION]`, `stacksim config --markdown`, or
/// `stacksim config [PRESET|FILE] [--set KEY=VALUE]...` (the effective configuration as TOML);
/// `args[0]` is "config". Throws sim::InputError on bad input; returns the exit code.
int config_command(const std::vector<std::string>& args);

/// docs/config.md: every key of `stacksim run` and `stacksim noc`, generated from the code.
std::string config_markdown();

}  // namespace stacksim::top
