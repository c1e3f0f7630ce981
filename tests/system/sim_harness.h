// SPDX-License-Identifier: Apache-2.0
// Runs one hand-written PTX kernel on a configured GPU in this process (one run per process).
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/sm_observer.h"
#include "workloads/host_api.h"

namespace stacksim::test {

/// What a harness run measured.
struct HarnessRun {
    uint64_t cycles = 0;                   ///< core cycles of the whole run
    uint64_t kernel_cycles = 0;            ///< cycles of the (last) kernel
    std::map<std::string, double> stats;   ///< every statistic by name
};

/// A kernel to run: PTX text, entry, launch shape, and a setup that allocates buffers and
/// returns the arguments.
struct HarnessKernel {
    std::string ptx;
    std::string entry;
    workloads::Dim3 grid;
    workloads::Dim3 block;
    std::function<workloads::LaunchArgs(workloads::HostApi&)> setup;
    /// Called after the kernel finished (optional): reads results back through the host API.
    std::function<void(workloads::HostApi&)> after{};
    uint32_t dynamic_shared_bytes = 0;
    bool cooperative = false;  ///< launch with HostApi::set_cooperative(true)
};

/// Runs `kernel` on preset `preset` with `--set` style `overrides`; `observer` (optional)
/// is attached to every SM. Throws on any failure.
HarnessRun run_kernel(const HarnessKernel& kernel, const std::string& preset = "small",
                      const std::vector<std::string>& overrides = {}, core::SmObserver* observer = nullptr);
/// Like run_kernel on preset "small"; `after` runs in the host program after the launch (reads
/// results back with the HostApi, launches more).
HarnessRun run_kernel_then(const HarnessKernel& kernel, const std::function<void(workloads::HostApi&)>& after);

/// Runs `measure` in a forked child (SystemC elaborates once per process) and returns the
/// numbers it produced; throws if the child fails.
std::vector<double> in_child(const std::function<std::vector<double>()>& measure);

}  // namespace stacksim::test
