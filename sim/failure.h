// SPDX-License-Identifier: Apache-2.0
// Carries an exception out of a SystemC process to the code that called sc_start().
#pragma once
#include <exception>

namespace stacksim::sim {

/// Records the first exception raised inside a process and stops the simulation; SystemC
/// would otherwise turn it into a report and lose its type (and so the exit code).
void record_failure(std::exception_ptr e);
/// Rethrows and clears the recorded exception, if any. Call it right after sc_start() returns,
/// before anything else may throw: in an AddressSanitizer build it also hands the thread's own
/// stack back to ASan, which SystemC's coroutine switches leave pointing at a process's stack.
void rethrow_failure();

}  // namespace stacksim::sim
