// SPDX-License-Identifier: Apache-2.0
// The applications of one run: their workloads and host settings, alone runs, STP and ANTT.
#include "top/applications.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <thread>

#include "sim/child_process.h"
#include "sim/failure.h"
#include "sim/stats.h"
#include "workloads/workload_registry.h"

namespace stacksim::top {

namespace {
uint64_t ps_of_us(double us) { return static_cast<uint64_t>(std::llround(us * 1e6)); }
}  // namespace

Applications::Applications(const RunConfig& cfg, const std::string& trace_list, workloads::Workload* program,
                           const std::string& program_name) {
    const uint64_t default_latency = ps_of_us(cfg.host.launch_latency_us);
    if (program) {
        m_program = program;
        AppInfo a;
        a.workload = program_name;
        a.seed = cfg.run.seed;
        a.settings.launch_latency_ps = default_latency;
        m_info.push_back(a);
        return;
    }
    if (!trace_list.empty()) {
        auto t = std::make_unique<workloads::TraceWorkload>(trace_list);
        m_trace = t.get();
        m_workloads.push_back(std::move(t));
        AppInfo a;
        a.workload = "trace " + trace_list;
        a.seed = cfg.run.seed;
        a.settings.launch_latency_ps = default_latency;
        m_info.push_back(a);
        return;
    }
    std::vector<AppConfig> apps = cfg.apps;
    if (apps.empty()) {
        AppConfig one;
        one.workload = cfg.run.workload;
        one.size = cfg.run.size;
        one.seed = cfg.run.seed;
        apps.push_back(one);
    }
    for (size_t i = 0; i < apps.size(); ++i) {
        const AppConfig& c = apps[i];
        AppInfo a;
        a.workload = c.workload.name;
        a.size = c.size ? c.size : workloads::workload_registry().default_size(c.workload);
        a.seed = c.seed ? c.seed : cfg.run.seed + i;
        a.settings.index = static_cast<uint32_t>(i);
        a.settings.start_ps = ps_of_us(c.start_us);
        a.settings.priority = static_cast<int>(c.priority);
        a.settings.launch_latency_ps = c.launch_latency_us < 0 ? default_latency : ps_of_us(c.launch_latency_us);
        a.settings.idempotent = c.idempotent;
        m_workloads.push_back(workloads::create_workload(c.workload, a.size, a.seed));
        m_info.push_back(a);
    }
}

std::vector<GpuSystem::App> Applications::system_apps() {
    std::vector<GpuSystem::App> out;
    for (size_t i = 0; i < m_info.size(); ++i) out.push_back({&workload(i), m_info[i].settings});
    return out;
}

std::vector<double> alone_turnarounds(const RunConfig& cfg, const std::string& ptx_dir) {
    std::vector<std::function<std::vector<double>()>> runs;
    for (size_t i = 0; i < cfg.apps.size(); ++i)
        runs.push_back([&cfg, &ptx_dir, i] {
            RunConfig alone = cfg;
            alone.apps = {cfg.apps[i]};
            alone.apps[0].start_us = 0;
            if (!alone.apps[0].seed) alone.apps[0].seed = cfg.run.seed + i;  // as in the shared run
            Applications apps(alone, "");
            sim::StatRegistry stats;
            GpuSystem gpu("gpu", alone, apps.system_apps(), ptx_dir, stats, false);
            sc_core::sc_start();
            sim::rethrow_failure();
            if (!gpu.finished()) throw sim::SimulationError("an alone run did not finish");
            const auto& h = *gpu.hosts().front();
            return std::vector<double>{static_cast<double>(h.end_ps() - h.start_ps())};
        });
    const unsigned jobs = cfg.run.alone_jobs ? cfg.run.alone_jobs : std::max(1u, std::thread::hardware_concurrency());
    std::vector<double> out;
    for (const std::vector<double>& t : sim::run_in_children(runs, jobs)) out.push_back(t.at(0));
    return out;
}

double system_throughput(const std::vector<double>& alone, const std::vector<double>& shared) {
    double s = 0;
    for (size_t i = 0; i < alone.size(); ++i) s += shared[i] > 0 ? alone[i] / shared[i] : 0.0;
    return s;
}

double average_normalized_turnaround(const std::vector<double>& alone, const std::vector<double>& shared) {
    double s = 0;
    for (size_t i = 0; i < alone.size(); ++i) s += alone[i] > 0 ? shared[i] / alone[i] : 0.0;
    return alone.empty() ? 0.0 : s / static_cast<double>(alone.size());
}

}  // namespace stacksim::top
