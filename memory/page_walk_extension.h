// SPDX-License-Identifier: Apache-2.0
// Marks a page-table walker's read of one page-table entry.
#pragma once
#include "sim/flag_extension.h"

namespace stacksim::memory {

struct PageWalkTag;
/// On the read (MemExtension access Read, 8 bytes in one sector) a TranslationUnit sends for
/// a page-table walk, and on a cache's forwarded copy of it. A SectorCache with
/// atomics = "bypass" (the L1) forwards it without allocating; one with "execute" (an L2
/// slice) serves it as a read and also counts it as a walk read; the translation unit keeps
/// its response from the SM. To the interconnect and DRAM it is an ordinary read.
using PageWalkExtension = sim::FlagExtension<PageWalkTag>;

}  // namespace stacksim::memory
