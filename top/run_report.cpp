// SPDX-License-Identifier: Apache-2.0
// Parts of a run's summary: kernel busy time and the per-application table (turnaround, STP, ANTT).
#include "top/run_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace stacksim::top {

uint64_t busy_cycles(const std::vector<host::KernelRecord>& kernels) {
    std::vector<std::pair<uint64_t, uint64_t>> spans;
    for (const auto& k : kernels) spans.emplace_back(k.start_cycle, k.end_cycle);
    std::sort(spans.begin(), spans.end());
    uint64_t busy = 0, end = 0;
    for (const auto& [a, b] : spans) {
        const uint64_t from = std::max(a, end);
        if (b > from) busy += b - from;
        end = std::max(end, b);
    }
    return busy;
}

nlohmann::json applications_json(const Applications& apps, GpuSystem& gpu,
                                  const std::vector<workloads::VerifyResult>& results,
                                  const std::vector<double>& alone, nlohmann::json& summary) {
    nlohmann::json out = nlohmann::json::array();
    std::vector<double> shared;
    for (size_t i = 0; i < apps.size(); ++i) {
        const host::HostProgram& h = *gpu.hosts()[i];
        const double turnaround = static_cast<double>(h.end_ps() - h.start_ps());
        shared.push_back(turnaround);
        const AppInfo& a = apps.info(i);
        const auto& r = results[i];
        nlohmann::json j = {{"index", i},
                            {"workload", a.workload},
                            {"size", a.size},
                            {"seed", a.seed},
                            {"priority", a.settings.priority},
                            {"start_us", static_cast<double>(h.start_ps()) * 1e-6},
                            {"end_us", static_cast<double>(h.end_ps()) * 1e-6},
                            {"turnaround_us", turnaround * 1e-6},
                            {"verification", {{"passed", r.ok}, {"checked", r.checked}, {"mismatches", r.mismatches}}}};
        if (i < alone.size()) {
            j["alone_turnaround_us"] = alone[i] * 1e-6;
            j["normalized_turnaround"] = alone[i] > 0 ? turnaround / alone[i] : 0.0;
        }
        uint64_t kernels = 0;
        for (const auto& k : gpu.device().kernels()) kernels += k.app == i;
        j["kernels"] = kernels;
        out.push_back(j);
    }
    if (!alone.empty()) {
        summary["stp"] = system_throughput(alone, shared);
        summary["antt"] = average_normalized_turnaround(alone, shared);
    }
    return out;
}

void print_applications(const nlohmann::json& summary) {
    fmt::print("  {:<4} {:<14} {:>8} {:>10} {:>10} {:>12} {:>12}\n", "app", "workload", "priority", "start us",
               "end us", "turnaround", "normalised");
    for (const auto& a : summary["applications"])
        fmt::print("  {:<4} {:<14} {:>8} {:>10.2f} {:>10.2f} {:>12.2f} {:>12}\n", a["index"].get<size_t>(),
                   a["workload"].get<std::string>(), a["priority"].get<int>(), a["start_us"].get<double>(),
                   a["end_us"].get<double>(), a["turnaround_us"].get<double>(),
                   a.contains("normalized_turnaround") ? fmt::format("{:.3f}", a["normalized_turnaround"].get<double>())
                                                       : std::string("-"));
    if (summary.contains("stp"))
        fmt::print("  STP {:.3f}, ANTT {:.3f} (alone runs on the same GPU)\n", summary["stp"].get<double>(),
                   summary["antt"].get<double>());
}

}  // namespace stacksim::top
