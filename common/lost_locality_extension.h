// SPDX-License-Identifier: Apache-2.0
// CCWS feedback carried by a memory response: the cache had held this line for the warp.
#pragma once
#include "sim/flag_extension.h"

namespace stacksim::common {

struct LostLocalityTag;
/// Set by a cache (memory/) on a request whose miss found its line in the requesting warp's
/// victim tags: the warp had the line and lost it. Read by the SM (core/) when the response
/// arrives; it reports the warp to its scheduler (CCWS, Rogers et al., MICRO 2012).
using LostLocalityExtension = sim::FlagExtension<LostLocalityTag>;

}  // namespace stacksim::common
