// SPDX-License-Identifier: Apache-2.0
// Must NOT compile in core/'s include view: core/ may not use memory/ (see CMakeLists.txt).
#include "memory/sector_cache.h"
