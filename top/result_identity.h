// SPDX-License-Identifier: Apache-2.0
// What a result depends on beyond its configuration: the simulator's build and its input files.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace stacksim::top {

/// The identity of a run's result, as summary.json records it under "identity":
///
///     {"build": "0.1.0+1f2e...", "inputs": {"/abs/ptx/vecadd.ptx": "fnv1a64:...", ...}}
///
/// `inputs` holds a content hash of every file the run reads besides its config: each regular
/// file of the PTX folder (`ptx_dir`, not its subfolders) and, for a trace, its kernelslist and
/// every regular file beside it (the .traceg files it names). Either path may be "".
/// Throws sim::InputError when a folder or file cannot be read.
/// `program`: a CUDA program's executable, whose content joins the inputs ("" for none).
nlohmann::json result_identity(const std::string& ptx_dir, const std::string& trace, const std::string& program = "");

/// FNV-1a 64-bit hash of the file's bytes, "fnv1a64:" and 16 hex digits. Throws sim::InputError
/// when it cannot be read or is not a regular file.
std::string file_content_hash(const std::string& path);

/// Why `recorded` (a summary.json "identity") differs from `current` ("" when they agree):
/// "built by another simulator build", "input changed: PATH", "no identity recorded".
std::string identity_change(const nlohmann::json& recorded, const nlohmann::json& current);

}  // namespace stacksim::top
