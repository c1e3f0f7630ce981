// SPDX-License-Identifier: Apache-2.0
// The command line: `stacksim run|noc|config|sweep|plot|stats|trace|ptx|list|--help|--version`.
#include "top/cli.h"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <csignal>

#include <filesystem>
#include <iostream>
#include <new>
#include <systemc>

#include "sim/error.h"
#include "sim/output_error.h"
#include "sim/printable.h"
#include "sim/registry_catalogue.h"
#include "top/embedded_presets.h"
#include "top/config_command.h"
#include "top/cuda_command.h"
#include "top/noc_command.h"
#include "top/noc_config.h"
#include "top/plot_command.h"
#include "top/ptx_command.h"
#include "top/run_command.h"
#include "top/run_config.h"
#include "top/stats_dictionary.h"
#include "top/sweep_command.h"
#include "top/trace_command.h"
#include "workloads/workload_registry.h"

namespace po = boost::program_options;

namespace stacksim::top {

namespace {

const char* const kUsage = R"(usage: stacksim run [CONFIG] [--workload NAME[:SIZE] | --trace KERNELSLIST] [--set KEY=VALUE]...
                    [--seed N] [--out DIR [--force]] [--ptx-dir DIR] [--quiet] [--watch smN.wM]...
                    [--timeline FILE.json [--timeline-sms 0,1]] [--samples FILE.csv] [--vcd FILE.vcd]
                    [--app NAME[:SIZE][@START][^PRIORITY]]...
       stacksim cuda [CONFIG] [--set KEY=VALUE]... [--out DIR [--force]] -- PROGRAM [ARGS...]
       stacksim noc [CONFIG.toml] [--rate R | --rates A:B:STEP | --saturation | --trace FILE.tra.bz2]
                    [--pattern NAME] [--set KEY=VALUE]... [--out DIR]
       stacksim config --list [SECTION] | --markdown | [PRESET|FILE] [--set KEY=VALUE]...
       stacksim sweep SWEEP.toml [--jobs N] [--retry-failed] [--slurm] | SWEEP.toml|DIR --status|--merge
       stacksim plot latency|bars|timeline ...   (stacksim plot --help)
       stacksim stats --list [PREFIX] | --markdown
       stacksim trace export [CONFIG] [--workload NAME[:SIZE]] --out DIR   (stacksim trace --help)
       stacksim ptx check FILE.ptx... [--config PRESET|FILE] [--threads N] [--json]
       stacksim list
       stacksim --help | --version

  run     simulate a workload (or an Accel-Sim trace) on a GPU configuration
  cuda    run a CUDA program (nvcc -cudart shared) with its kernels on the simulated GPU
  noc     run the network-on-chip alone: latency/throughput curves, saturation, Netrace replay
  config  the configuration keys (defaults, units, meaning) and a configuration's effective values
  sweep   run a sweep file's points (local pool or Slurm), resumable; results.csv
  plot    plot curves, bars or a timeline from results
  stats   the statistics: names, units and meaning
  trace   write a PTX run out as an Accel-Sim trace (kernelslist.g + .traceg)
  ptx     check PTX files: every unsupported construct (file:line, CUDA feature), registers,
          shared/local bytes and occupancy per kernel
  list    presets, workloads and every policy

CONFIG is a preset name (see `stacksim list`) or a TOML file, which may start from a preset
with `base = "gtx980"`; default: gtx980. `stacksim COMMAND --help` describes each command's
options. With no arguments, `stacksim run` simulates the default workload (vecadd) on gtx980.
Exit codes: 0 ok, 2 bad input, 3 simulation failure, 4 output verification failed, 5 an output could not be written (disk full, ulimit -f).
)";

int list_command() {
    fmt::print("presets (stacksim run PRESET):\n");
    for (const auto& f : embedded_presets()) {
        std::string text(f.text);
        std::string first = text.substr(0, text.find('\n'));
        if (first.rfind("# ", 0) == 0) first = first.substr(2);
        fmt::print("  {:<14} {}\n", std::string(f.file_name.substr(0, f.file_name.size() - 5)), first);
    }
    // Every registry, from the catalogue; with the config keys that choose from it (read off
    // the declared parameters of `stacksim run` and `stacksim noc`).
    std::vector<std::pair<std::string, std::vector<sim::SectionDoc>>> configs = {
        {"", run_config_docs()}, {"stacksim noc: ", noc_config_docs()}};
    for (const sim::PolicyCatalog* r : sim::RegistryCatalogue::instance().registries()) {
        std::string keys;
        for (const auto& [tool, docs] : configs)
            for (const sim::SectionDoc& sec : docs)
                for (const sim::ParamDoc& d : sec.params)
                    if (d.registry == r->kind()) keys += (keys.empty() ? "" : ", ") + tool + sec.path + "." + d.key;
        const std::string summary = r->summary();
        const size_t colon = summary.find(':');
        fmt::print("{} ({}{}):{}\n", summary.substr(0, colon), keys.empty() ? "" : keys + "; ", r->kind(),
                   colon == std::string::npos ? "" : summary.substr(colon + 1));
        for (const auto& name : r->names()) fmt::print("  {:<14} {}\n", name, r->listing(name));
    }
    for (const sim::SectionDoc& sec : configs[0].second)
        for (const sim::ParamDoc& d : sec.params)
            if (sec.path == "memory" && d.key == "interconnect")
                fmt::print("interconnects (memory.interconnect): {}\n", d.allowed.substr(d.allowed.find(':') + 2));
    fmt::print("network configs (stacksim noc CONFIG): configs/noc/mesh.toml, configs/noc/stacked.toml\n");
    return kExitOk;
}

}  // namespace

int report_error(std::exception_ptr error) {
    // Messages quote file names, keys and values from the input: printed escaped, bad input
    // on one line.
    auto bad_input = [](const std::string& m) {
        fmt::print(stderr, "stacksim: error: {}\n", sim::printable(m));
        return kExitBadInput;
    };
    try {
        std::rethrow_exception(error);
    } catch (const po::error& e) {
        return bad_input(std::string("command line: ") + e.what());
    } catch (const sim::InputError& e) {
        return bad_input(e.what());
    } catch (const sim::OutputError& e) {
        fmt::print(stderr, "stacksim: error: output not written: {}\n", sim::printable(e.what()));
        return kExitOutputFailed;
    } catch (const std::filesystem::filesystem_error& e) {
        // A path given on the command line that the system refuses (too long, no permission).
        return bad_input(e.path1().string() + ": " + e.code().message());
    } catch (const std::bad_alloc&) {
        return bad_input("out of memory: this configuration or input needs more memory than is available; lower "
                         "the sizes (stacksim run refuses such runs up front by an estimate, run.max_memory_gb)");
    } catch (const std::exception& e) {
        fmt::print(stderr, "stacksim: simulation failed: {}\n", sim::printable(e.what(), true));
        return kExitSimFailure;
    }
}

int cli_main(int argc, char** argv) {
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    std::vector<std::string> args(argv + 1, argv + argc);
    // Past a file size limit (ulimit -f) a write fails with EFBIG and is reported, instead of
    // SIGXFSZ killing the process without a word.
    std::signal(SIGXFSZ, SIG_IGN);
    try {
        if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
            std::cout << kUsage;
            return args.empty() ? kExitBadInput : kExitOk;
        }
        if (args[0] == "--version") {
            fmt::print("stacksim {}\n", STACKSIM_VERSION);
            return kExitOk;
        }
        if (args[0] == "list") return list_command();
        if (args[0] == "noc") return noc_command(args);
        if (args[0] == "cuda") return cuda_command(args);
        if (args[0] == "config") return config_command(args);
        if (args[0] == "sweep") return sweep_command(args);
        if (args[0] == "plot") return plot_command(args);
        if (args[0] == "ptx") return ptx_command(args);
        if (args[0] == "stats") return stats_command(args);
        if (args[0] == "trace") return trace_command(args);
        if (args[0] == "run") {
            args.erase(args.begin());
            const RunOptions o = parse_run_options(args);
            if (!o.help.empty()) {
                std::cout << o.help;
                return kExitOk;
            }
            return run_simulation(o);
        }
        throw sim::InputError(fmt::format("unknown command '{}' (try stacksim --help)", args[0]));
    } catch (...) {
        return report_error(std::current_exception());
    }
}

}  // namespace stacksim::top
