// SPDX-License-Identifier: Apache-2.0
// The simulator's build identity (generated at build time by cmake/build_identity.cmake).
#pragma once

namespace stacksim::top {

/// "VERSION+HASH": the version and 16 hex digits of a SHA-256 of the source tree the binary was
/// built from (sources, kernels, presets). Results record it; a sweep reruns points of another.
const char* build_identity();

}  // namespace stacksim::top
