// SPDX-License-Identifier: Apache-2.0
// Must compile in core/'s include view: the control case of core_uses_memory.cpp.
#include "common/tag_array.h"
#include "core/sm.h"
