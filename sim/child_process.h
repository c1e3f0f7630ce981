// SPDX-License-Identifier: Apache-2.0
// Runs a measurement in a forked child process (SystemC elaborates once per process).
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace stacksim::sim {

/// Runs `measure` in a forked child and returns the numbers it produced. An InputError or
/// SimulationError the child throws is thrown again here with the child's message; any other
/// failure is a SimulationError. Call before elaborating anything in this process. The child is
/// killed (SIGKILL) when this process dies.
std::vector<double> run_in_child(const std::function<std::vector<double>()>& measure);

/// As run_in_child, for a child that produces text (e.g. JSON) rather than numbers.
std::string run_in_child_text(const std::function<std::string()>& measure);

/// Runs each of `measures` in its own forked child, at most `jobs` (>= 1) at once, and returns
/// their numbers in the order given. When one fails, the children still running are killed and
/// the failure of the first failed measure (in the order given) is thrown as run_in_child does.
std::vector<std::vector<double>> run_in_children(const std::vector<std::function<std::vector<double>()>>& measures,
                                                 unsigned jobs);

}  // namespace stacksim::sim
