// SPDX-License-Identifier: Apache-2.0
// The Python scripts (scripts/*.py), embedded at build time so `stacksim plot` runs from anywhere.
#pragma once
#include <vector>

#include "top/embedded_presets.h"

namespace stacksim::top {

/// Every scripts/*.py, sorted by file name.
const std::vector<EmbeddedFile>& embedded_scripts();

}  // namespace stacksim::top
