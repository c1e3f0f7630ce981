// SPDX-License-Identifier: Apache-2.0
// `stacksim run`: configure, simulate, verify, report.
#include "top/run_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "sim/atomic_file.h"
#include "sim/error.h"
#include "sim/failure.h"
#include "core/sm.h"
#include "top/applications.h"
#include "top/gpu_system.h"
#include "top/gpu_totals.h"
#include "top/run_report.h"
#include "top/run_tracing.h"
#include "top/run_config.h"
#include "workloads/trace_workload.h"
#include "workloads/workload_registry.h"

namespace stacksim::top {

namespace {

std::string known_workloads() {
    std::string s;
    for (auto& n : workloads::workload_registry().names()) s += (s.empty() ? "" : ", ") + n;
    return s;
}

void apply_cli(const RunOptions& o, sim::ConfigDoc& doc) {
    add_app_specs(doc, o.apps);  // first, so that --set app[N].KEY=... can refine them
    for (auto& a : o.overrides) doc.apply_override(a);
    if (o.workload) {
        std::string name = *o.workload;
        auto colon = name.find(':');
        if (colon != std::string::npos) {
            std::string size = name.substr(colon + 1);
            name = name.substr(0, colon);
            if (size.empty() || size.find_first_not_of("0123456789") != std::string::npos || size.size() > 9 ||
                std::stoul(size) == 0)
                throw sim::InputError(fmt::format("--workload {}: size '{}' is not a positive integer", *o.workload, size));
            doc.apply_override("run.size=" + size);
        }
        if (!workloads::workload_registry().contains(name))
            throw sim::InputError(
                fmt::format("--workload {}: unknown workload '{}' (known: {})", *o.workload, name, known_workloads()));
        doc.apply_override("run.workload=\"" + name + "\"");
    }
    if (o.seed) doc.apply_override(fmt::format("run.seed={}", *o.seed));
}

/// Outcome name without the "stall_" prefix.
std::string short_outcome(size_t i) {
    std::string n = core::outcome_name(static_cast<core::IssueOutcome>(i));
    return n.rfind("stall_", 0) == 0 ? n.substr(6) : n;
}

/// "reason pct%  ..." over the stalled slots of `outcomes` (issued slots excluded).
std::string stall_line(const std::array<uint64_t, 8>& outcomes) {
    double total = 0;
    for (size_t i = 1; i < outcomes.size(); ++i) total += static_cast<double>(outcomes[i]);
    std::string s;
    for (size_t i = 1; i < outcomes.size(); ++i)
        if (outcomes[i]) s += fmt::format("{} {:.1f}%  ", short_outcome(i), 100.0 * static_cast<double>(outcomes[i]) / total);
    return s.empty() ? "none" : s;
}

nlohmann::json outcomes_json(const std::array<uint64_t, 8>& outcomes) {
    nlohmann::json j = nlohmann::json::object();
    for (size_t i = 0; i < outcomes.size(); ++i) j[short_outcome(i)] = outcomes[i];
    return j;
}

}  // namespace

int run_simulation(const RunOptions& o) {
    sim::ConfigDoc doc = load_config(o.config);
    apply_cli(o, doc);
    RunConfig cfg = read_run_config(doc);
    Applications apps(cfg, o.trace_list);
    workloads::TraceWorkload* trace = apps.trace();
    // Alone runs for STP/ANTT, each in a child process, before this process elaborates.
    std::vector<double> alone;
    if (apps.size() > 1 && cfg.run.alone_runs) alone = alone_turnarounds(cfg, o.ptx_dir);

    if (!o.out_dir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(o.out_dir, ec);
        if (ec) throw sim::InputError(fmt::format("--out {}: cannot create directory: {}", o.out_dir, ec.message()));
    }

    sim::StatRegistry stats;
    const bool progress = !o.quiet && ::isatty(STDERR_FILENO);
    GpuSystem gpu("gpu", cfg, apps.system_apps(), o.ptx_dir, stats, progress);
    RunTracing tracing(o, gpu, stats);
    auto t0 = std::chrono::steady_clock::now();
    tracing.run();
    double host_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (progress) std::fprintf(stderr, "\r%80s\r", "");
    sim::rethrow_failure();
    if (!gpu.finished())
        throw sim::SimulationError("simulation ran out of events before the host program finished");

    std::vector<workloads::VerifyResult> results;
    bool all_ok = true;
    for (size_t i = 0; i < apps.size(); ++i) {
        results.push_back(apps.workload(i).verify());
        all_ok = all_ok && results.back().ok;
    }
    const workloads::VerifyResult& vr = results.front();
    const std::string workload_name = apps.info(0).workload;
    const uint32_t size = apps.info(0).size;
    tracing.finish(gpu.core_clock().cycle());
    if (!o.quiet) fmt::print("{}", tracing.watch_text());
    const uint64_t cycles = gpu.core_clock().cycle();
    const uint64_t insts = gpu.warp_instructions();

    nlohmann::json summary;
    summary["stacksim_version"] = STACKSIM_VERSION;
    summary["config"] = doc.source_name();
    summary["config_bases"] = doc.bases();
    summary["workload"] = {{"name", workload_name}, {"size", size}, {"seed", apps.info(0).seed}};
    if (trace) {
        summary["trace"] = {{"warp_instructions", trace->warp_instructions()},
                            {"skipped_memcpy_commands", trace->skipped_copies()},
                            {"skipped_memcpy_bytes", trace->skipped_copy_bytes()}};
        // Every traced warp instruction must have been issued exactly once.
        if (trace->warp_instructions() != insts)
            throw sim::SimulationError(fmt::format("trace replay issued {} warp instructions, the trace holds {}",
                                                   insts, trace->warp_instructions()));
    }
    summary["cycles"] = cycles;
    summary["warp_instructions"] = insts;
    // IPC over the cycles in which some kernel ran (copies and host time excluded).
    const uint64_t kernel_cycles = busy_cycles(gpu.device().kernels());
    summary["kernel_cycles"] = kernel_cycles;
    summary["ipc"] = kernel_cycles ? static_cast<double>(insts) / static_cast<double>(kernel_cycles) : 0.0;
    summary["simulated_seconds"] = sc_core::sc_time_stamp().to_seconds();
    summary["copy_seconds"] = static_cast<double>(gpu.device().copy_ps()) * 1e-12;
    summary["kernels"] = nlohmann::json::array();
    for (auto& k : gpu.device().kernels()) {
        uint64_t kc = k.end_cycle - k.start_cycle;
        summary["kernels"].push_back({{"name", k.name}, {"app", k.app}, {"priority", k.priority}, {"ctas", k.ctas},
                                      {"call_cycle", k.call_cycle}, {"start_cycle", k.start_cycle},
                                      {"cycles", kc}, {"warp_instructions", k.warp_instructions},
                                      {"avg_cta_cycles", k.ctas_completed ? static_cast<double>(k.cta_cycles) /
                                                                              static_cast<double>(k.ctas_completed)
                                                                        : 0.0},
                                      {"ipc", kc ? static_cast<double>(k.warp_instructions) / static_cast<double>(kc) : 0.0},
                                      {"issue_slots", outcomes_json(k.issue_outcomes)}});
    }
    summary["verification"] = {{"passed", vr.ok}, {"checked", vr.checked}, {"mismatches", vr.mismatches},
                                {"detail", vr.detail}};
    if (apps.size() > 1) summary["applications"] = applications_json(apps, gpu, results, alone, summary);
    summary["host_seconds"] = host_s;
    summary["warp_instructions_per_second"] = host_s > 0 ? static_cast<double>(insts) / host_s : 0.0;
    summary["cycles_per_second"] = host_s > 0 ? static_cast<double>(cycles) / host_s : 0.0;

    if (!o.quiet) {
        fmt::print("stacksim {}: {} on {}: {} SMs, {} warp scheduler, size {}, seed {}\n", STACKSIM_VERSION,
                   workload_name, config_origin(doc), cfg.gpu.num_sms, cfg.sm_policies.warp_scheduler.name, size,
                   cfg.run.seed);
        fmt::print("  {:<20} {:>8} {:>12} {:>14} {:>8}\n", "kernel", "CTAs", "cycles", "warp-instr", "IPC");
        for (auto& k : summary["kernels"])
            fmt::print("  {:<20} {:>8} {:>12} {:>14} {:>8.3f}\n", k["name"].get<std::string>(),
                       k["ctas"].get<uint64_t>(), k["cycles"].get<uint64_t>(),
                       k["warp_instructions"].get<uint64_t>(), k["ipc"].get<double>());
        fmt::print("  total: {} cycles ({} in kernels), {} warp instructions, kernel IPC {:.3f}\n", cycles,
                   kernel_cycles, insts, summary["ipc"].get<double>());
        fmt::print("  end to end: {:.2f} us simulated, of which {:.2f} us PCIe copies\n",
                   summary["simulated_seconds"].get<double>() * 1e6, summary["copy_seconds"].get<double>() * 1e6);
        fmt::print("  GPU-wide: {}\n", GpuTotals(stats).summary_line());
        std::array<uint64_t, 8> all{};
        for (auto& k : gpu.device().kernels())
            for (size_t i = 0; i < all.size(); ++i) all[i] += k.issue_outcomes[i];
        fmt::print("  issue stalls (share of stalled scheduler slots): {}\n", stall_line(all));
        if (gpu.device().kernels().size() > 1)
            for (auto& k : gpu.device().kernels()) fmt::print("    {:<18} {}\n", k.name, stall_line(k.issue_outcomes));
        if (apps.size() > 1) print_applications(summary);
        if (trace)
            fmt::print("  verification: not applicable (timing-only trace; {} traced warp instructions replayed)\n",
                       trace->warp_instructions());
        else
            for (size_t i = 0; i < apps.size(); ++i) {
                const workloads::VerifyResult& r = results[i];
                fmt::print("  verification{}: {} ({} elements checked{})\n",
                           apps.size() > 1 ? fmt::format(" of app {} ({})", i, apps.info(i).workload) : "",
                           r.ok ? "PASSED" : "FAILED", r.checked,
                           r.ok ? "" : ", " + std::to_string(r.mismatches) + " wrong, first: " + r.detail);
            }
        fmt::print("  host: {:.3f} s, {:.0f} warp-instructions/s, {:.0f} cycles/s\n", host_s,
                   summary["warp_instructions_per_second"].get<double>(),
                   summary["cycles_per_second"].get<double>());
    }
    if (!o.out_dir.empty()) {
        sim::write_file_atomically(o.out_dir + "/stats.json", stats.to_json().dump(2) + "\n");
        sim::write_file_atomically(o.out_dir + "/stats.csv", stats.to_csv());
        sim::write_file_atomically(o.out_dir + "/stats.txt", stats.to_text());
        sim::write_file_atomically(o.out_dir + "/summary.json", summary.dump(2) + "\n");
        std::ostringstream toml;
        toml << doc.effective() << "\n";
        sim::write_file_atomically(o.out_dir + "/config.toml", toml.str());
        if (!o.quiet) fmt::print("  results written to {}/\n", o.out_dir);
    }
    return all_ok ? kExitOk : kExitVerifyFailed;
}

}  // namespace stacksim::top
