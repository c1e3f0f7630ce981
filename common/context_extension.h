// SPDX-License-Identifier: Apache-2.0
// Where CTA contexts are saved (their requests are sim::TrafficClass::Context).
#pragma once
#include <cstdint>

namespace stacksim::common {


/// Start of the context area, a physical region of device memory: context saves and restores
/// (TrafficClass::Context) pass the translation unit untranslated, an L1 forwards them without
/// allocating, the L2 slices and DRAM serve them like any other traffic. Each SM's CTA slot has
/// its own 1 MiB region there.
constexpr uint64_t kContextAreaBase = 0xE000'0000'0000;

}  // namespace stacksim::common
