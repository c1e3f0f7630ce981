// SPDX-License-Identifier: Apache-2.0
// `stacksim run`: configure, simulate, verify, report.
#include "top/run_command.h"

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <filesystem>
#include <optional>
#include <sstream>

#include "sim/atomic_file.h"
#include "sim/error.h"
#include "sim/failure.h"
#include "sim/output_path.h"
#include "sim/printable.h"
#include "sim/staged_directory.h"
#include "core/sm.h"
#include "top/applications.h"
#include "top/build_identity.h"
#include "top/gpu_system.h"
#include "top/gpu_totals.h"
#include "top/result_identity.h"
#include "top/run_report.h"
#include "top/run_tracing.h"
#include "top/sm_observers.h"
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
            doc.apply_override("run.size=" + size, "--workload " + *o.workload);
        }
        if (!workloads::workload_registry().contains(name))
            throw sim::InputError(
                fmt::format("--workload {}: unknown workload '{}' (known: {})", *o.workload, name, known_workloads()));
        doc.apply_override("run.workload=\"" + name + "\"", "--workload " + *o.workload);
    }
    if (o.seed) doc.apply_override(fmt::format("run.seed={}", *o.seed), fmt::format("--seed {}", *o.seed));
}

/// `path` made absolute and normal, without a trailing separator (for comparing folders).
std::filesystem::path folder_key(const std::filesystem::path& path) {
    std::error_code ec;
    std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
    if (ec) p = std::filesystem::absolute(path).lexically_normal();
    return p.has_filename() ? p : p.parent_path();
}

/// True when `file` (a --timeline, --samples or --vcd output) lies directly in the --out
/// folder: it is then one file of the results set, staged and published with the others.
bool in_results_folder(const RunOptions& o, const std::string& file) {
    if (o.out_dir.empty() || file.empty()) return false;
    const std::filesystem::path dir = std::filesystem::path(file).parent_path();
    return folder_key(dir.empty() ? "." : dir) == folder_key(o.out_dir);
}

/// True when files can be written in folder `dir`: it is writable, or it is missing and its
/// nearest existing ancestor is a writable folder (the tracing outputs create their folder).
bool can_hold_files(std::filesystem::path dir) {
    std::error_code ec;
    dir = std::filesystem::absolute(dir, ec);
    if (ec) return false;
    while (!std::filesystem::exists(dir, ec)) {
        if (dir == dir.parent_path()) return false;
        dir = dir.parent_path();
    }
    return std::filesystem::is_directory(dir, ec) && ::access(dir.c_str(), W_OK) == 0;
}

/// The files `stacksim run --out` writes.
const char* const kResultFiles[] = {"stats.json", "stats.csv", "stats.txt", "summary.json", "config.toml"};

/// The tracing outputs of a run: option name and the file it names.
std::vector<std::pair<const char*, std::string>> trace_outputs(const RunOptions& o) {
    return {{"--timeline", o.timeline_file}, {"--samples", o.samples_file}, {"--vcd", o.vcd_file}};
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

const char* const kRunUsage = R"(usage: stacksim run [CONFIG] [OPTIONS]

Simulates a workload on the GPU that CONFIG describes (a preset name from `stacksim list`, or a
TOML file, which may start from a preset with `base = "gtx980"`; default: gtx980), checks the
output against the CPU reference and prints a summary. Config keys: `stacksim config --list`.
)";


nlohmann::json outcomes_json(const std::array<uint64_t, 8>& outcomes) {
    nlohmann::json j = nlohmann::json::object();
    for (size_t i = 0; i < outcomes.size(); ++i) j[short_outcome(i)] = outcomes[i];
    return j;
}

}  // namespace

namespace {

/// `text` as a whole number in [lo, hi]; InputError naming `option` otherwise ("-1" is not
/// wrapped to 2^64-1).
uint64_t parse_whole(const std::string& option, const std::string& text, uint64_t lo, uint64_t hi) {
    const bool digits = !text.empty() && text.size() <= 20 && text.find_first_not_of("0123456789") == std::string::npos;
    errno = 0;
    const unsigned long long v = digits ? std::strtoull(text.c_str(), nullptr, 10) : 0;
    if (!digits || errno == ERANGE || v < lo || v > hi)
        throw sim::InputError(fmt::format("{} {}: expected a whole number from {} to {}", option, sim::printable(text),
                                          lo, hi));
    return v;
}

}  // namespace

RunOptions parse_run_options(const std::vector<std::string>& args) {
    namespace po = boost::program_options;
    RunOptions o;
    po::options_description desc("options", 100, 50);
    std::string workload;
    std::string timeline_sms;
    std::string seed, sample_every, timeline_window;
    desc.add_options()
        ("workload,w", po::value<std::string>(&workload)->value_name("NAME[:SIZE]"),
         "library workload and its size (stacksim list); sets run.workload and run.size")
        ("set", po::value<std::vector<std::string>>(&o.overrides)->composing()->value_name("KEY=VALUE"),
         "override one config key (repeatable), e.g. --set gpu.sm.warp_scheduler=gto")
        ("seed", po::value<std::string>(&seed)->value_name("N"), "seed of the random inputs and seeded policies (run.seed)")
        ("trace", po::value<std::string>(&o.trace_list)->value_name("KERNELSLIST"),
         "replay an Accel-Sim trace (its kernelslist.g) instead of a workload; timing only")
        ("trace-cache", po::value<std::string>(&o.trace_cache)->value_name("DIR|off"),
         "folder of the parsed-trace cache (default $STACKSIM_TRACE_CACHE, else ~/.cache/stacksim/traces); "
         "off: parse every trace file")
        ("out,o", po::value<std::string>(&o.out_dir)->value_name("DIR"),
         "write stats.json/.csv/.txt, summary.json and the effective config.toml into DIR, all at once at "
         "the end; DIR must not exist or be empty")
        ("force", po::bool_switch(&o.force), "with --out: replace a non-empty DIR (another run's results)")
        ("ptx-dir", po::value<std::string>(&o.ptx_dir)->value_name("DIR"),
         "read library PTX files from DIR first (a hand-edited kernel)")
        ("quiet,q", po::bool_switch(&o.quiet), "print nothing but errors")
        ("watch", po::value<std::vector<std::string>>(&o.watch)->composing()->value_name("smN.wM"),
         "print every event of warp slot M of SM N: fetch, issue, stalls, divergence (repeatable)")
        ("timeline", po::value<std::string>(&o.timeline_file)->value_name("FILE.json"),
         "write a Chrome/Perfetto trace: kernels, CTAs, warps' issues and stalls, sampled counters")
        ("timeline-sms", po::value<std::string>(&timeline_sms)->value_name("0,1"),
         "SMs whose warps the timeline shows (default 0)")
        ("timeline-window", po::value<std::string>(&timeline_window)->value_name("START:END"),
         "the timeline holds core cycles START..END only (intervals clipped), e.g. 100000:200000")
        ("timeline-kernel", po::value<std::vector<std::string>>(&o.timeline_kernels)->composing()->value_name("NAME"),
         "the timeline holds only this kernel's CTAs, warps and rows (repeatable; names as in kernels)")
        ("samples", po::value<std::string>(&o.samples_file)->value_name("FILE.csv"),
         "write the sampled series over time as CSV: IPC, L1/L2 hit rates, DRAM GB/s, faults in flight")
        ("sample-every", po::value<std::string>(&sample_every)->value_name("N"),
         "core cycles between samples (timeline counters, --samples, --vcd); default 1000")
        ("sample-stat", po::value<std::vector<std::string>>(&o.sample_stats)->composing()->value_name("NAME"),
         "also sample this statistic of stats.json (repeatable)")
        ("vcd", po::value<std::string>(&o.vcd_file)->value_name("FILE.vcd"),
         "write a waveform (GTKWave): warps' issue, PC and SIMT stack depth, sampled series, routers")
        ("vcd-signal", po::value<std::vector<std::string>>(&o.vcd_signals)->composing()->value_name("SIGNAL"),
         "what the VCD holds: smN, smN.wM, counters, routers, routerK (repeatable; default sm0, counters, "
         "routers)")
        ("app", po::value<std::vector<std::string>>(&o.apps)->composing()->value_name("NAME[:SIZE][@START][^PRIORITY]"),
         "add an application (repeatable; START e.g. 25us): several applications in one run")
        ("help,h", "print this help");
    po::options_description hidden;
    hidden.add_options()("config", po::value<std::string>(&o.config), "preset or TOML file");
    po::options_description all;
    all.add(desc).add(hidden);
    po::positional_options_description pos;
    pos.add("config", 1);
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    if (vm.count("help")) {
        std::ostringstream help;
        help << kRunUsage << "\n" << desc << "\nExit codes: 0 ok, 2 bad input, 3 simulation failure, 4 output "
                                            "verification failed, 5 output not written (disk full, ulimit -f). More: docs/usage.md.\n";
        o.help = help.str();
        return o;
    }
    po::notify(vm);
    if (vm.count("out") && o.out_dir.empty()) throw sim::InputError("--out \"\": an empty path names no folder");
    if (vm.count("workload")) o.workload = workload;
    if (vm.count("seed")) o.seed = parse_whole("--seed", seed, 0, std::numeric_limits<int64_t>::max());
    if (vm.count("sample-every"))
        o.sample_every = parse_whole("--sample-every", sample_every, 1, std::numeric_limits<int64_t>::max());
    // An option that shapes an output nobody asked for is a mistake, not a silent no-op.
    if (!o.vcd_signals.empty() && o.vcd_file.empty())
        throw sim::InputError(fmt::format("--vcd-signal {}: needs --vcd FILE", o.vcd_signals.front()));
    if (!o.sample_stats.empty() && o.samples_file.empty() && o.timeline_file.empty() && o.vcd_file.empty())
        throw sim::InputError(fmt::format("--sample-stat {}: needs --samples, --timeline or --vcd (what is sampled)",
                                          o.sample_stats.front()));
    if (vm.count("timeline-window")) {
        const auto colon = timeline_window.find(':');
        if (colon == std::string::npos)
            throw sim::InputError(fmt::format("--timeline-window {}: expected START:END in core cycles",
                                              sim::printable(timeline_window)));
        const uint64_t max = std::numeric_limits<int64_t>::max();
        o.timeline_from = parse_whole("--timeline-window START", timeline_window.substr(0, colon), 0, max);
        o.timeline_to = parse_whole("--timeline-window END", timeline_window.substr(colon + 1), 1, max);
        if (o.timeline_to <= o.timeline_from)
            throw sim::InputError(fmt::format("--timeline-window {}: END must be after START", timeline_window));
    }
    for (const auto& [given, option] : {std::pair<bool, const char*>{vm.count("timeline-window") > 0, "--timeline-window"},
                                        {!o.timeline_kernels.empty(), "--timeline-kernel"}})
        if (given && o.timeline_file.empty())
            throw sim::InputError(fmt::format("{}: needs --timeline FILE", option));
    if (vm.count("timeline-sms") && o.timeline_file.empty())
        throw sim::InputError(fmt::format("--timeline-sms {}: needs --timeline FILE", timeline_sms));
    if (vm.count("timeline-sms")) {
        o.timeline_sms.clear();
        std::stringstream ss(timeline_sms);
        std::string item;
        while (std::getline(ss, item, ',')) {
            if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos || item.size() > 6)
                throw sim::InputError(fmt::format("--timeline-sms {}: expected SM numbers like 0,1", timeline_sms));
            o.timeline_sms.push_back(static_cast<uint32_t>(std::stoul(item)));
        }
    }
    return o;
}

PreparedRun prepare_run(const RunOptions& o) {
    if (!o.trace_list.empty() && (o.workload || !o.apps.empty()))
        throw sim::InputError(fmt::format("give {} or --trace, not both (a trace replaces the workload)",
                                          o.workload ? "--workload" : "--app"));
    PreparedRun p{load_config(o.config), {}};
    apply_cli(o, p.doc);
    p.cfg = read_run_config(p.doc);
    const RunConfig& cfg = p.cfg;
    if (!o.trace_list.empty() && !cfg.apps.empty())
        throw sim::InputError(fmt::format("--trace {}: the config has [[app]] tables; a trace replaces them, give "
                                          "one or the other",
                                          o.trace_list));
    if (!o.watch.empty()) WatchLog(o.watch, cfg.gpu.num_sms, cfg.sm.max_threads / 32);  // checks the specs
    for (uint32_t sm : o.timeline_sms)
        if (sm >= cfg.gpu.num_sms)
            throw sim::InputError(fmt::format("--timeline-sms: no SM {}: the GPU has SMs 0..{} (gpu.num_sms)", sm,
                                              cfg.gpu.num_sms - 1));
    std::vector<std::string> staged_names;
    for (const auto& [option, file] : trace_outputs(o)) {
        if (file.empty()) continue;
        if (in_results_folder(o, file)) {
            // Written into the staging folder and published with the results (the folder itself
            // appears only then), so its name must be one no other output of the run takes.
            const std::string name = std::filesystem::path(file).filename().string();
            if (name.empty() || name == "." || name == "..")
                throw sim::InputError(fmt::format("{} {}: not a file name", option, file));
            bool taken = std::find(staged_names.begin(), staged_names.end(), name) != staged_names.end();
            for (const char* f : kResultFiles) taken = taken || name == f;
            if (taken)
                throw sim::InputError(
                    fmt::format("{} {}: another output of the run in --out {} has that name", option, file, o.out_dir));
            staged_names.push_back(name);
            continue;
        }
        // A link, folder or block device is refused now, not after the run (sim/output_path.h).
        // A FIFO or device (/dev/null) is written in place: its folder need not be writable.
        if (sim::classify_output(file, option + std::string(" ") + file) == sim::OutputKind::Stream) continue;
        const std::filesystem::path t(file);
        const std::filesystem::path dir = t.has_parent_path() ? t.parent_path() : ".";
        if (!can_hold_files(dir))
            throw sim::InputError(fmt::format("{} {}: the folder {} is not writable and cannot be created", option,
                                              file, dir.string()));
    }
    // Before any simulation: a link, "DIR/.", or a folder that is not a previous run's results
    // would be refused only at publish time, after the whole run.
    if (!o.out_dir.empty()) sim::check_results_target(o.out_dir, o.force, "run");
    return p;
}

namespace {

/// `o` with each tracing output that lies in the results folder moved into `out`'s staging folder.
RunOptions staged_outputs(const RunOptions& o, const sim::StagedDirectory* out) {
    RunOptions s = o;
    if (!out) return s;
    for (std::string* file : {&s.timeline_file, &s.samples_file, &s.vcd_file})
        if (in_results_folder(o, *file))
            *file = out->staging() + "/" + std::filesystem::path(*file).filename().string();
    return s;
}

/// Simulates the built system `gpu`, verifies and reports: summary, tracing outputs, watch log,
/// and the results into `out` (null: no --out), published last.
int report(const RunOptions& o, GpuSystem& gpu, sim::StatRegistry& stats, sim::ConfigDoc& doc, const RunConfig& cfg,
           Applications& apps, const std::vector<double>& alone, bool progress, sim::StagedDirectory* out) {
    workloads::TraceWorkload* trace = apps.trace();
    RunTracing tracing(staged_outputs(o, out), gpu, stats);
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
    // What the result depends on besides its configuration (a sweep reruns it when that changes).
    summary["identity"] = result_identity(o.ptx_dir, o.trace_list, o.program_file);
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
    if (o.export_trace) {
        if (!all_ok) {
            fmt::print(stderr, "stacksim: trace export: the run's output failed verification: no trace written\n");
            return kExitVerifyFailed;
        }
        const std::string what = tracing.write_trace(*out);
        out->publish(o.force);
        if (!o.quiet) fmt::print("  Accel-Sim trace ({}) written to {}/kernelslist.g\n", what, out->target());
        return kExitOk;
    }
    if (out) {
        out->write("stats.json", stats.to_json().dump(2) + "\n");
        out->write("stats.csv", stats.to_csv());
        out->write("stats.txt", stats.to_text());
        out->write("summary.json", summary.dump(2) + "\n");
        std::ostringstream toml;
        toml << doc.effective() << "\n";
        out->write("config.toml", toml.str());
        out->publish(o.force);
        if (!o.quiet) fmt::print("  results written to {}/\n", out->target());
    }
    return all_ok ? kExitOk : kExitVerifyFailed;
}

/// Builds the system, simulates, verifies, reports and writes the results of `p`. Returns the
/// exit code; any failure from elaboration on is returned in `failure` instead of thrown, so
/// that the system is destroyed normally (SystemC's thread stacks are not unwound).
int simulate(const RunOptions& o, PreparedRun& p, Applications& apps, const std::vector<double>& alone,
             sim::StagedDirectory* out, std::exception_ptr& failure) {
    const RunConfig& cfg = p.cfg;
    sim::StatRegistry stats;
    const bool progress = !o.quiet && ::isatty(STDERR_FILENO);
    GpuSystem gpu("gpu", cfg, apps.system_apps(), o.ptx_dir, stats, progress);
    try {
        return report(o, gpu, stats, p.doc, cfg, apps, alone, progress, out);
    } catch (...) {
        failure = std::current_exception();
        return kExitSimFailure;
    }
}

}  // namespace

int run_simulation(const RunOptions& o) {
    PreparedRun p = prepare_run(o);
    const RunConfig& cfg = p.cfg;
    Applications apps(cfg, o.trace_list, o.program, o.program_name);
    if (workloads::TraceWorkload* trace = apps.trace())
        trace->set_trace_cache(workloads::trace_cache_settings(o.trace_cache, build_identity()));
    // Alone runs for STP/ANTT, each in a child process, before this process elaborates.
    std::vector<double> alone;
    if (apps.size() > 1 && cfg.run.alone_runs) alone = alone_turnarounds(cfg, o.ptx_dir);
    // The results (and tracing outputs inside the results folder) go into a private staging
    // folder beside it, made now so that a folder that cannot be written fails before the run;
    // the results folder itself appears only when the run is over, whole.
    std::optional<sim::StagedDirectory> out;
    if (!o.out_dir.empty()) {
        std::string dir = o.out_dir;
        while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
        const std::filesystem::path parent = std::filesystem::path(dir).parent_path();
        std::error_code ec;
        if (!parent.empty()) std::filesystem::create_directories(parent, ec);
        if (ec)
            throw sim::InputError(
                fmt::format("--out {}: cannot create {}: {}", o.out_dir, parent.string(), ec.message()));
        out.emplace(o.out_dir);
    }
    std::exception_ptr failure;
    const int code = simulate(o, p, apps, alone, out ? &*out : nullptr, failure);
    if (failure) std::rethrow_exception(failure);
    return code;
}

}  // namespace stacksim::top
