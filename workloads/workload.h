// SPDX-License-Identifier: Apache-2.0
// A library workload: a host program plus a CPU reference that checks every output element.
#pragma once
#include <cstdint>
#include <string>

#include "workloads/host_api.h"

namespace stacksim::workloads {

/// Outcome of comparing a workload's outputs with its CPU reference.
struct VerifyResult {
    bool ok = false;
    uint64_t checked = 0;     ///< output elements compared (all of them)
    uint64_t mismatches = 0;
    std::string detail;       ///< first mismatch ("c[17] = 3 expected 4"), empty if ok
};

/// A host program. run() allocates, copies, launches and copies results back; verify()
/// recomputes the outputs on the CPU and compares every element.
class Workload {
public:
    virtual ~Workload() = default;
    virtual void run(HostApi& host) = 0;
    virtual VerifyResult verify() = 0;
};

/// How the thesis classifies an application (SPEC §3): used to select groups of workloads.
enum class WorkloadClass { Regular, RegularSharing, Irregular, Other };

}  // namespace stacksim::workloads
