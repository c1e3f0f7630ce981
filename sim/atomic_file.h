// SPDX-License-Identifier: Apache-2.0
// Writes a file atomically: to a temporary beside it, then renamed over the target.
#pragma once
#include <string>

namespace stacksim::sim {

/// Writes `content` to `path` so that readers see either the old file or the whole new one.
/// Throws std::runtime_error naming the path on failure.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace stacksim::sim
