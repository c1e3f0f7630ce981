// SPDX-License-Identifier: Apache-2.0
// `stacksim run`: configure, simulate, verify, report.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/config.h"
#include "top/run_config.h"
#include "workloads/workload.h"

namespace stacksim::top {

/// Options of one run, as given on the command line.
struct RunOptions {
    std::string config = "gtx980";     ///< preset name or TOML path
    std::optional<std::string> workload;  ///< NAME or NAME:SIZE
    std::vector<std::string> overrides;   ///< "--set" assignments
    std::optional<uint64_t> seed;
    std::string out_dir;                  ///< empty: write no files
    bool force = false;                   ///< replace a non-empty out_dir
    std::string ptx_dir;                  ///< read PTX from here first
    bool quiet = false;
    std::string timeline_file;            ///< Chrome trace JSON output, empty: none
    std::vector<uint32_t> timeline_sms{0};  ///< SMs whose warps appear in the timeline
    uint64_t timeline_from = 0;           ///< --timeline-window START: core cycle the timeline starts
    uint64_t timeline_to = ~uint64_t{0};  ///< --timeline-window END: core cycle it ends (exclusive)
    std::vector<std::string> timeline_kernels;  ///< --timeline-kernel: only these kernels; empty: all
    std::vector<std::string> watch;       ///< warps to log, "sm0.w3"
    uint64_t sample_every = 1000;         ///< core cycles between samples (timeline counters, CSV, VCD)
    std::string samples_file;             ///< CSV of the sampled series, empty: none
    std::vector<std::string> sample_stats;  ///< statistics added to the samples (names as in stats.json)
    std::string vcd_file;                 ///< VCD waveform output, empty: none
    std::vector<std::string> vcd_signals; ///< "sm0", "sm0.w3", "counters", "routers", "router5"
    std::string trace_list;               ///< Accel-Sim kernelslist.g to run instead of a workload
    /// --trace-cache: folder of the parsed-trace cache, or "off"; "" = the environment's choice
    /// (workloads::trace_cache_settings, docs/accelsim-traces.md#the-trace-cache)
    std::string trace_cache;
    std::vector<std::string> apps;        ///< --app NAME[:SIZE][@START][^PRIORITY], one application each
    std::string help;                     ///< --help: the text to print instead of running
    bool export_trace = false;            ///< `stacksim trace export`: out_dir gets an Accel-Sim trace
    /// A host program given by the caller instead of run.workload (the CUDA runtime library's
    /// bridge to a native program), and the name the results give it. Not owned.
    workloads::Workload* program = nullptr;
    std::string program_name;
    /// That program's executable: its content joins the result's identity (summary.json).
    std::string program_file;
};

/// Exit codes of the CLI.
enum ExitCode : int { kExitOk = 0, kExitBadInput = 2, kExitSimFailure = 3, kExitVerifyFailed = 4, kExitOutputFailed = 5 };

/// A run whose inputs have all been checked: its configuration, before anything is built.
struct PreparedRun {
    sim::ConfigDoc doc;  ///< the config with the command line applied
    RunConfig cfg;
};

/// Parses the arguments of `stacksim run` (after "run"). With --help, only `help` is set (the
/// text to print). Throws boost::program_options::error or InputError.
RunOptions parse_run_options(const std::vector<std::string>& args);

/// Checks everything about a run that can be checked before simulating, without side effects:
/// the config and the command line's overrides, the memory estimate (run.max_memory_gb),
/// --watch and --timeline-sms against the GPU, that the folder of each tracing output (--timeline,
/// --samples, --vcd) is the --out folder or can be written or created, that --out is
/// absent or empty (or --force), and that --workload and --trace are not both given. Throws
/// InputError (a ConfigError naming file, line and key for the config).
PreparedRun prepare_run(const RunOptions& options);

/// Runs one simulation and prints its summary. Throws InputError / SimulationError;
/// returns kExitOk or kExitVerifyFailed. A failure inside the simulation is thrown only after
/// the simulated system has been destroyed, so no SystemC object is torn down by unwinding.
int run_simulation(const RunOptions& options);

}  // namespace stacksim::top
