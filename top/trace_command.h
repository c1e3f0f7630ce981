// SPDX-License-Identifier: Apache-2.0
// `stacksim trace export`: run a PTX workload and write it out as an Accel-Sim trace.
#pragma once
#include <string>
#include <vector>

namespace stacksim::top {

/// `stacksim trace export [CONFIG] [--workload NAME[:SIZE]] --out DIR [run options]`; `args[0]`
/// is "trace". Simulates like `stacksim run`, verifies the output, then publishes DIR holding
/// kernelslist.g and kernel-N.traceg (TraceExporter) in one rename. Throws sim::InputError on
/// bad input; returns an exit code.
int trace_command(const std::vector<std::string>& args);

}  // namespace stacksim::top
