// SPDX-License-Identifier: Apache-2.0
// Runs one hand-written PTX kernel on a configured GPU in this process (one run per process).
#include "tests/system/sim_harness.h"
#include "tests/system/stats_record.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <systemc>

#include "sim/atomic_file.h"
#include "sim/child_process.h"
#include "sim/failure.h"
#include "sim/stats.h"
#include "top/gpu_system.h"
#include "top/run_config.h"
#include "workloads/workload.h"

namespace stacksim::test {

namespace {
class OneKernel : public workloads::Workload {
public:
    OneKernel(const HarnessKernel& k, const std::function<void(workloads::HostApi&)>* after)
        : m_k(k), m_after(after) {}
    void run(workloads::HostApi& host) override {
        workloads::LaunchArgs args = m_k.setup ? m_k.setup(host) : workloads::LaunchArgs();
        if (m_k.cooperative) host.set_cooperative(true);
        host.launch_ptx_source("test.ptx", m_k.ptx, m_k.entry, m_k.grid, m_k.block, args, m_k.dynamic_shared_bytes);
        if (m_after && *m_after) (*m_after)(host);
        if (m_k.after) {
            host.device_synchronize();
            m_k.after(host);
        }
    }
    workloads::VerifyResult verify() override { return {true, 0, 0, ""}; }

private:
    const HarnessKernel& m_k;
    const std::function<void(workloads::HostApi&)>* m_after;
};
HarnessRun run_with(const HarnessKernel& kernel, const std::string& preset, const std::vector<std::string>& overrides,
                    core::SmObserver* observer, const std::function<void(workloads::HostApi&)>* after);
}  // namespace

HarnessRun run_kernel(const HarnessKernel& kernel, const std::string& preset,
                      const std::vector<std::string>& overrides, core::SmObserver* observer) {
    return run_with(kernel, preset, overrides, observer, nullptr);
}

HarnessRun run_kernel_then(const HarnessKernel& kernel, const std::function<void(workloads::HostApi&)>& after) {
    return run_with(kernel, "small", {}, nullptr, &after);
}

namespace {
HarnessRun run_with(const HarnessKernel& kernel, const std::string& preset, const std::vector<std::string>& overrides,
                    core::SmObserver* observer, const std::function<void(workloads::HostApi&)>* after) {
    sim::ConfigDoc doc = top::load_config(preset);
    for (auto& o : overrides) doc.apply_override(o);
    top::RunConfig cfg = top::read_run_config(doc);
    OneKernel workload(kernel, after);
    sim::StatRegistry stats;
    top::GpuSystem gpu("gpu", cfg, {top::GpuSystem::App{&workload, host::AppSettings{}}}, "", stats, false);
    if (observer) gpu.set_observer(observer);
    sc_core::sc_start();
    sim::rethrow_failure();
    if (!gpu.host().finished()) throw std::runtime_error("host program did not finish");
    HarnessRun r;
    r.cycles = gpu.core_clock().cycle();
    r.kernel_cycles = gpu.device().kernels().back().end_cycle - gpu.device().kernels().back().start_cycle;
    const nlohmann::json all = stats.to_json();
    const std::string record = stats_record_path("harness");
    if (!record.empty()) sim::write_file_atomically(record + ".json", all.dump(2) + "\n");
    for (auto it = all.begin(); it != all.end(); ++it) {
        const nlohmann::json& val = it.value().at("value");
        if (val.is_number())
            r.stats[it.key()] = val.get<double>();
        else if (val.is_object() && val.contains("mean"))
            r.stats[it.key()] = val.at("mean").get<double>();
    }
    return r;
}
}  // namespace

std::vector<double> in_child(const std::function<std::vector<double>()>& measure) { return sim::run_in_child(measure); }

}  // namespace stacksim::test
