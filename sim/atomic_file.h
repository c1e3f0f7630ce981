// SPDX-License-Identifier: Apache-2.0
// Writes a file atomically: to a temporary beside it, then renamed over the target.
#pragma once
#include <string>

namespace stacksim::sim {

/// Writes `content` to `path` so that readers see either the old file or the whole new one.
/// A FIFO or character device at `path` is written in place, never replaced; a folder, a link to
/// anything else or a block device is refused (sim/output_path.h). Throws std::runtime_error
/// (InputError for a refused path) naming the path on failure.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace stacksim::sim
