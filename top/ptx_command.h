// SPDX-License-Identifier: Apache-2.0
// `stacksim ptx check`: what of a PTX file the front end accepts, and what each kernel needs.
#pragma once
#include <string>
#include <vector>

namespace stacksim::top {

/// `stacksim ptx check FILE.ptx... [--config PRESET|FILE] [--threads N] [--dynamic-shared B]
/// [--json]`; `args[0]` is "ptx". Lists every unsupported construct with file:line and the CUDA
/// feature behind it, and per kernel its registers, shared and local bytes and occupancy.
/// Returns 0 when every file is fully supported, 2 otherwise; throws sim::InputError on bad
/// arguments or an unreadable file.
int ptx_command(const std::vector<std::string>& args);

}  // namespace stacksim::top
