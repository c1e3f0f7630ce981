// SPDX-License-Identifier: Apache-2.0
// Registers a kernel needs: the most 32-bit values live at once over its virtual registers.
#pragma once
#include <cstdint>

#include "core/kernel.h"

namespace stacksim::core {

/// The largest number of 32-bit register slots live at one instruction of `k` (a 64-bit
/// register counts two, predicates none), by backward liveness over the CFG. An estimate of
/// what ptxas allocates: ptxas schedules and rematerialises, so real counts differ by a few.
/// Needs Kernel::reg_types (the PTX front end fills it); 0 for a kernel without code.
uint32_t max_live_registers(const Kernel& k);

}  // namespace stacksim::core
