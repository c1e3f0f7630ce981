// SPDX-License-Identifier: Apache-2.0
// `stacksim sweep`: run, resume, submit to Slurm, merge and report a sweep of `stacksim run`s.
#pragma once
#include <string>
#include <vector>

namespace stacksim::top {

/// `stacksim sweep SWEEP.toml|DIR [options]` (args[0] is "sweep"). Returns the exit code:
/// 0 when every point is done, 3 when some failed, 130 when interrupted; throws
/// sim::InputError (exit 2) for a bad sweep file or command line before any point runs.
int sweep_command(const std::vector<std::string>& args);

}  // namespace stacksim::top
