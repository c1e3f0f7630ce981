// SPDX-License-Identifier: Apache-2.0
// The workload registry: every workload registers itself with its sizes, class and PTX files.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/registry.h"
#include "workloads/workload.h"

namespace stacksim::workloads {

/// What a workload is created from besides its parameters.
struct WorkloadArgs {
    uint32_t size = 0;  ///< problem size in the workload's units; 0 is never valid here
    uint64_t seed = 1;  ///< seeds every input
};

/// The problem sizes a workload accepts.
struct WorkloadSize {
    std::string meaning;       ///< what a size counts: "elements", "matrix dimension N"
    uint32_t default_size = 0; ///< the size of a run with run.size = 0
    uint32_t max = 0;          ///< the largest size
    uint32_t multiple_of = 1;  ///< sizes must be multiples of this
    /// Host memory a run of size n needs for its data, bytes: inputs, outputs and reference
    /// on the host plus their copies in the simulated device memory (an estimate checked
    /// against run.max_memory_gb before anything is allocated); null: negligible.
    uint64_t (*bytes)(uint64_t n) = nullptr;
};

/// A workload's entry beside its factory: name, description, class, PTX files and sizes.
struct WorkloadInfo {
    std::string name;
    std::string description;
    WorkloadClass cls = WorkloadClass::Other;
    std::vector<std::string> ptx_files;  ///< library PTX files the workload launches
    WorkloadSize size;
};

/// The workloads by name: a sim::Registry (so `run.workload` is a policy choice whose
/// parameters, if the workload declares any, are the top-level table named after it:
/// [synthetic], [pchase]) that also keeps each entry's WorkloadInfo. A workload registers
/// itself in its own source file:
///
///     namespace {
///     const bool registered = workload_registry().add(
///         {"vecadd", "c = a + b (float)", WorkloadClass::Regular, {"vecadd.ptx"}, {"elements", 4096, kMaxN}},
///         construct<VecAdd>);
///     }
///
/// Every factory it registers first checks the size against the entry's WorkloadSize
/// (sim::InputError naming the workload); the factory sees 1 <= size <= max only.
class WorkloadRegistry : public sim::Registry<Workload, const WorkloadArgs&> {
public:
    WorkloadRegistry() : Registry("workload", "workloads: kernels with inputs and a CPU reference (--workload NAME[:SIZE])") {}

    /// Registers a workload without parameters. Returns true (for a static initialiser).
    bool add(WorkloadInfo info, std::function<Product(const WorkloadArgs&)> make);

    /// Registers a workload with parameters struct P (see sim::Registry::add_with). If the
    /// default size depends on the parameters, `default_size` computes it; info.size.default_size
    /// is then overwritten with its value for P's defaults. Returns true.
    /// `bytes`, if given, replaces info.size.bytes for sizes that depend on the parameters.
    template <typename P>
    bool add_with(WorkloadInfo info, std::function<Product(const P&, const WorkloadArgs&)> make,
                  std::function<uint32_t(const P&)> default_size = nullptr,
                  std::function<uint64_t(const P&, uint64_t n)> bytes = nullptr) {
        const std::string name = info.name, description = info.description;
        if (default_size) info.size.default_size = default_size(P{});
        keep(std::move(info));
        if (default_size)
            m_default_size[name] = [default_size](const void* p) { return default_size(*static_cast<const P*>(p)); };
        if (bytes)
            m_bytes[name] = [bytes](const void* p, uint64_t n) { return bytes(p ? *static_cast<const P*>(p) : P{}, n); };
        return Registry::add_with<P>(name, description, [this, name, make](const P& p, const WorkloadArgs& a) {
            check_size(name, a.size);
            return make(p, a);
        });
    }

    /// Description, [class; size = meaning, default N] and "[parameters]" (`stacksim list`).
    std::string listing(const std::string& name) const override;

    /// Every entry, sorted by name (complete once static initialisation is over).
    const std::vector<WorkloadInfo>& infos() const { return m_infos; }
    /// The entry named `name`, or nullptr.
    const WorkloadInfo* find(const std::string& name) const;
    /// The entry named `name`; throws sim::InputError listing the known names if absent.
    const WorkloadInfo& info(const std::string& name) const;
    /// The size a run of `spec` with run.size = 0 has (it may depend on spec's parameters).
    uint32_t default_size(const sim::PolicySpec& spec) const;
    /// Throws sim::InputError unless `size` is a valid size of workload `name`.
    void check_size(const std::string& name, uint32_t size) const;
    /// Estimated host bytes of the data of a run of `spec` at a valid `size` (WorkloadSize::bytes).
    uint64_t bytes(const sim::PolicySpec& spec, uint32_t size) const;

private:
    void keep(WorkloadInfo info);
    std::vector<WorkloadInfo> m_infos;
    std::map<std::string, std::function<uint32_t(const void* params)>> m_default_size;
    std::map<std::string, std::function<uint64_t(const void* params, uint64_t n)>> m_bytes;
};

/// The registry every workload adds itself to.
WorkloadRegistry& workload_registry();

/// Creates workload `spec` (its name and parameters) for problem size `size` (0: its default
/// size, WorkloadRegistry::default_size) and `seed`. Throws sim::InputError for an unknown
/// name or a size the workload does not accept.
std::unique_ptr<Workload> create_workload(const sim::PolicySpec& spec, uint32_t size, uint64_t seed);

/// Every registered workload, sorted by name.
const std::vector<WorkloadInfo>& workload_library();
/// The entry named `name`, or nullptr.
const WorkloadInfo* find_workload(const std::string& name);

}  // namespace stacksim::workloads
