// SPDX-License-Identifier: Apache-2.0
// The command line: `stacksim run|noc|config|sweep|plot|stats|list|--help|--version`.
#include "noc/layer_policy.h"
#include "noc/routing.h"
#include "top/cli.h"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <iostream>
#include <sstream>
#include <systemc>

#include "memory/dram_scheduler.h"
#include "memory/eviction_policy.h"
#include "memory/migration_mechanism.h"
#include "memory/prefetcher.h"
#include "common/replacement_policy.h"
#include "sched/cta_placement.h"
#include "sched/warp_scheduler_registry.h"
#include "sim/error.h"
#include "top/embedded_presets.h"
#include "top/config_command.h"
#include "top/noc_command.h"
#include "top/plot_command.h"
#include "top/run_command.h"
#include "top/stats_dictionary.h"
#include "top/sweep_command.h"
#include "workloads/workload_registry.h"

namespace po = boost::program_options;

namespace stacksim::top {

namespace {

const char* const kUsage = R"(usage: stacksim run [CONFIG] [--workload NAME[:SIZE] | --trace KERNELSLIST] [--set KEY=VALUE]...
                    [--seed N] [--out DIR] [--ptx-dir DIR] [--quiet] [--watch smN.wM]...
                    [--timeline FILE.json [--timeline-sms 0,1]] [--samples FILE.csv] [--vcd FILE.vcd]
                    [--app NAME[:SIZE][@START][^PRIORITY]]...
       stacksim noc [CONFIG.toml] [--rate R | --rates A:B:STEP | --saturation | --trace FILE.tra.bz2]
                    [--pattern NAME] [--set KEY=VALUE]... [--out DIR]
       stacksim config --list [SECTION] | --markdown | [PRESET|FILE] [--set KEY=VALUE]...
       stacksim sweep SWEEP.toml [--jobs N] [--retry-failed] [--slurm] | SWEEP.toml|DIR --status|--merge
       stacksim plot latency|bars|timeline ...   (stacksim plot --help)
       stacksim stats --list [PREFIX] | --markdown
       stacksim list
       stacksim --help | --version

  run     simulate a workload (or an Accel-Sim trace) on a GPU configuration
  noc     run the network-on-chip alone: latency/throughput curves, saturation, Netrace replay
  config  the configuration keys (defaults, units, meaning) and a configuration's effective values
  sweep   run a sweep file's points (local pool or Slurm), resumable; results.csv
  plot    plot curves, bars or a timeline from results
  stats   the statistics: names, units and meaning
  list    presets, workloads and every policy

CONFIG is a preset name (see `stacksim list`) or a TOML file, which may start from a preset
with `base = "gtx980"`; default: gtx980. `stacksim COMMAND --help` describes each command's
options. With no arguments, `stacksim run` simulates the default workload (vecadd) on gtx980.
Exit codes: 0 ok, 2 bad input, 3 simulation failure, 4 output verification failed.
)";

const char* class_name(workloads::WorkloadClass c) {
    switch (c) {
    case workloads::WorkloadClass::Regular: return "regular";
    case workloads::WorkloadClass::RegularSharing: return "regular-sharing";
    case workloads::WorkloadClass::Irregular: return "irregular";
    case workloads::WorkloadClass::Other: return "other";
    }
    return "";
}

int list_command() {
    fmt::print("presets (stacksim run PRESET):\n");
    for (const auto& f : embedded_presets()) {
        std::string text(f.text);
        std::string first = text.substr(0, text.find('\n'));
        if (first.rfind("# ", 0) == 0) first = first.substr(2);
        fmt::print("  {:<14} {}\n", std::string(f.file_name.substr(0, f.file_name.size() - 5)), first);
    }
    fmt::print("workloads (--workload NAME[:SIZE]):\n");
    for (const auto& w : workloads::workload_library())
        fmt::print("  {:<14} {} [{}; size = {}, default {}]\n", w.name, w.description, class_name(w.cls),
                   w.size.meaning, w.size.default_size);
    struct Kind {
        const char* heading;
        const sim::PolicyCatalog& catalog;
    };
    const Kind kinds[] = {
        {"warp schedulers (gpu.sm.warp_scheduler)", sched::warp_schedulers()},
        {"cache replacement policies (gpu.l1.replacement, memory.l2.replacement)", common::replacement_policies()},
        {"DRAM schedulers (memory.dram.scheduler)", memory::dram_schedulers()},
        {"CTA schedulers (gpu.cta_scheduler)", sched::cta_placements()},
        {"page migration mechanisms (uvm.mechanism)", memory::migration_mechanisms()},
        {"page eviction policies (uvm.eviction)", memory::eviction_policies()},
        {"page prefetchers (uvm.prefetcher)", memory::prefetchers()},
        {"network routing (noc.routing, memory.noc.routing)", noc::routing_functions()},
        {"2.5D layer policies (stacksim noc: noc.layer_policy)", noc::layer_policies()},
    };
    for (const Kind& k : kinds) {
        fmt::print("{}:\n", k.heading);
        for (const auto& name : k.catalog.names()) {
            const std::string params = k.catalog.has_params(name) ? " [parameters]" : "";
            fmt::print("  {:<14} {}{}\n", name, k.catalog.description(name), params);
        }
    }
    fmt::print("interconnects (memory.interconnect): crossbar, mesh, stacked\n");
    fmt::print("network configs (stacksim noc CONFIG): configs/noc/mesh.toml, configs/noc/stacked.toml\n");
    return kExitOk;
}

const char* const kRunUsage = R"(usage: stacksim run [CONFIG] [OPTIONS]

Simulates a workload on the GPU that CONFIG describes (a preset name from `stacksim list`, or a
TOML file, which may start from a preset with `base = "gtx980"`; default: gtx980), checks the
output against the CPU reference and prints a summary. Config keys: `stacksim config --list`.
)";

int run_command(const std::vector<std::string>& args) {
    RunOptions o;
    po::options_description desc("options", 100, 50);
    std::string workload;
    std::string timeline_sms;
    uint64_t seed = 0;
    desc.add_options()
        ("workload,w", po::value<std::string>(&workload)->value_name("NAME[:SIZE]"),
         "library workload and its size (stacksim list); sets run.workload and run.size")
        ("set", po::value<std::vector<std::string>>(&o.overrides)->composing()->value_name("KEY=VALUE"),
         "override one config key (repeatable), e.g. --set gpu.sm.warp_scheduler=gto")
        ("seed", po::value<uint64_t>(&seed)->value_name("N"), "seed of the random inputs and seeded policies (run.seed)")
        ("trace", po::value<std::string>(&o.trace_list)->value_name("KERNELSLIST"),
         "replay an Accel-Sim trace (its kernelslist.g) instead of a workload; timing only")
        ("out,o", po::value<std::string>(&o.out_dir)->value_name("DIR"),
         "write stats.json/.csv/.txt, summary.json and the effective config.toml into DIR")
        ("ptx-dir", po::value<std::string>(&o.ptx_dir)->value_name("DIR"),
         "read library PTX files from DIR first (a hand-edited kernel)")
        ("quiet,q", po::bool_switch(&o.quiet), "print nothing but errors")
        ("watch", po::value<std::vector<std::string>>(&o.watch)->composing()->value_name("smN.wM"),
         "print every event of warp slot M of SM N: fetch, issue, stalls, divergence (repeatable)")
        ("timeline", po::value<std::string>(&o.timeline_file)->value_name("FILE.json"),
         "write a Chrome/Perfetto trace: kernels, CTAs, warps' issues and stalls, sampled counters")
        ("timeline-sms", po::value<std::string>(&timeline_sms)->value_name("0,1"),
         "SMs whose warps the timeline shows (default 0)")
        ("samples", po::value<std::string>(&o.samples_file)->value_name("FILE.csv"),
         "write the sampled series over time as CSV: IPC, L1/L2 hit rates, DRAM GB/s, faults in flight")
        ("sample-every", po::value<uint64_t>(&o.sample_every)->value_name("N"),
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
        std::cout << kRunUsage << "\n" << desc << "\nExit codes: 0 ok, 2 bad input, 3 simulation failure, 4 output "
                                                 "verification failed. More: docs/usage.md.\n";
        return kExitOk;
    }
    po::notify(vm);
    if (vm.count("workload")) o.workload = workload;
    if (vm.count("seed")) o.seed = seed;
    if (vm.count("sample-every") && o.sample_every == 0)
        throw sim::InputError("--sample-every 0: expected a number of cycles of at least 1");
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
    return run_simulation(o);
}

}  // namespace

int cli_main(int argc, char** argv) {
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    std::vector<std::string> args(argv + 1, argv + argc);
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
        if (args[0] == "config") return config_command(args);
        if (args[0] == "sweep") return sweep_command(args);
        if (args[0] == "plot") return plot_command(args);
        if (args[0] == "stats") return stats_command(args);
        if (args[0] == "run") {
            args.erase(args.begin());
            return run_command(args);
        }
        throw sim::InputError(fmt::format("unknown command '{}' (try stacksim --help)", args[0]));
    } catch (const po::error& e) {
        fmt::print(stderr, "stacksim: error: command line: {}\n", e.what());
        return kExitBadInput;
    } catch (const sim::InputError& e) {
        fmt::print(stderr, "stacksim: error: {}\n", e.what());
        return kExitBadInput;
    } catch (const sim::SimulationError& e) {
        fmt::print(stderr, "stacksim: simulation failed: {}\n", e.what());
        return kExitSimFailure;
    } catch (const std::exception& e) {
        fmt::print(stderr, "stacksim: simulation failed: {}\n", e.what());
        return kExitSimFailure;
    }
}

}  // namespace stacksim::top
