// SPDX-License-Identifier: Apache-2.0
// The applications of one run: their workloads and host settings, alone runs, STP and ANTT.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "top/gpu_system.h"
#include "top/run_config.h"
#include "workloads/trace_workload.h"
#include "workloads/workload.h"

namespace stacksim::top {

/// One application's identity.
struct AppInfo {
    std::string workload;  ///< registry name, or "trace LIST"
    uint32_t size = 0;     ///< resolved size
    uint64_t seed = 0;
    host::AppSettings settings;
};

/// Builds every application of a run: the [[app]] tables, or one application from [run] (or
/// an Accel-Sim trace list).
class Applications {
public:
    /// `program` (not owned, may be null): one application running it, named `program_name`,
    /// instead of the config's workloads.
    Applications(const RunConfig& cfg, const std::string& trace_list, workloads::Workload* program = nullptr,
                 const std::string& program_name = "");

    size_t size() const { return m_info.size(); }
    const AppInfo& info(size_t i) const { return m_info[i]; }
    workloads::Workload& workload(size_t i) { return m_program ? *m_program : *m_workloads[i]; }
    /// The trace workload of a trace run, else null.
    workloads::TraceWorkload* trace() const { return m_trace; }
    /// What GpuSystem runs.
    std::vector<GpuSystem::App> system_apps();

private:
    std::vector<std::unique_ptr<workloads::Workload>> m_workloads;
    workloads::Workload* m_program = nullptr;  ///< the caller's host program, if any
    std::vector<AppInfo> m_info;
    workloads::TraceWorkload* m_trace = nullptr;
};

/// Turnaround of each application of `cfg` when it runs alone on the same GPU (started at 0),
/// in ps, each measured in a forked child process. For STP and ANTT.
std::vector<double> alone_turnarounds(const RunConfig& cfg, const std::string& ptx_dir);

/// System throughput: sum over applications of alone / shared turnaround.
double system_throughput(const std::vector<double>& alone, const std::vector<double>& shared);
/// Average normalised turnaround time: mean of shared / alone turnaround.
double average_normalized_turnaround(const std::vector<double>& alone, const std::vector<double>& shared);

}  // namespace stacksim::top
