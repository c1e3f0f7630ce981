// SPDX-License-Identifier: Apache-2.0
// Whether a kernel's CTAs may be flushed on preemption: rerunning one from scratch is harmless.
#pragma once
#include "core/kernel.h"
#include "core/trace_kernel.h"

namespace stacksim::core {

/// A PTX kernel is idempotent when it has no atomic or reduction and no global (or generic)
/// store to a buffer it also loads from. Buffers are identified by provenance: a flow-insensitive
/// pass tags every register with the pointer (8-byte) parameters its value derives from (ld.param, then
/// through arithmetic, moves and conversions); a load or store addresses the buffers of its base
/// register's tags. A store whose address derives from no parameter, or from a loaded value
/// (pointer chasing), counts as touching every buffer: the answer errs on "not idempotent".
bool is_idempotent(const Kernel& kernel);

/// A traced kernel is idempotent when no instruction is atomic and no cache line (128 bytes)
/// stored by any CTA is also loaded by any CTA.
bool is_idempotent(const TraceKernel& kernel);

}  // namespace stacksim::core
