// SPDX-License-Identifier: Apache-2.0
// Carries an exception out of a SystemC process to the code that called sc_start().
#include "sim/failure.h"

#include <systemc>

namespace stacksim::sim {

namespace {
std::exception_ptr& slot() {
    static std::exception_ptr e;
    return e;
}
}  // namespace

void record_failure(std::exception_ptr e) {
    if (!slot()) slot() = e;
    sc_core::sc_stop();
}

void rethrow_failure() {
    if (std::exception_ptr e = slot()) {
        slot() = nullptr;
        std::rethrow_exception(e);
    }
}

}  // namespace stacksim::sim
