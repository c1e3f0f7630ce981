// SPDX-License-Identifier: Apache-2.0
// `stacksim plot`: figures from sweep tables, NoC curves and timelines (scripts/plot.py, matplotlib).
#pragma once
#include <string>
#include <vector>

namespace stacksim::top {

/// `stacksim plot KIND ...` (args[0] is "plot"): runs the embedded scripts/plot.py with the
/// first Python 3 that has matplotlib ($STACKSIM_PYTHON, else python3 on the PATH, else
/// /usr/bin/python3) and returns its exit code. Throws sim::InputError when there is none.
int plot_command(const std::vector<std::string>& args);

}  // namespace stacksim::top
