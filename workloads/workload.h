// SPDX-License-Identifier: Apache-2.0
// A library workload: a host program plus a CPU reference that checks every output element.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

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

/// A library entry: a name, a one-line description and a factory taking a size and seed.
struct WorkloadInfo {
    std::string name;
    std::string description;
    uint32_t default_size;
    std::string size_meaning;  ///< what `size` counts, e.g. "elements", "matrix dimension"
    WorkloadClass cls;
    std::vector<std::string> ptx_files;  ///< library PTX files the workload launches
    std::function<std::unique_ptr<Workload>(uint32_t size, uint64_t seed)> make;
};

/// Every workload of the library, sorted by name.
const std::vector<WorkloadInfo>& workload_library();
/// The entry named `name`, or nullptr.
const WorkloadInfo* find_workload(const std::string& name);

}  // namespace stacksim::workloads
