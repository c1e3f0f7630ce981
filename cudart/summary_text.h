// SPDX-License-Identifier: Apache-2.0
// The few lines a CUDA program's run prints at its end, from the run's summary.json.
#pragma once
#include <string>

namespace stacksim::cudart {

/// Kernels, cycles and copies of the run whose summary.json is `summary_json`, and where the
/// results are (`results_dir`, empty: not kept). Empty when the summary cannot be read.
std::string summary_text(const std::string& summary_json, const std::string& results_dir);

}  // namespace stacksim::cudart
