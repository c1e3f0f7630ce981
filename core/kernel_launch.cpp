// SPDX-License-Identifier: Apache-2.0
// A kernel launch: the kernel, its grid, its parameter buffer and its run-time record.
#include "core/kernel_launch.h"

#include "core/trace_kernel.h"

namespace stacksim::core {

uint64_t KernelLaunch::num_ctas() const {
    if (trace) return trace->ctas.size();
    return uint64_t{grid[0]} * grid[1] * grid[2];
}

const std::string& KernelLaunch::name() const { return trace ? trace->name : kernel->name; }

}  // namespace stacksim::core
