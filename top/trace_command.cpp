// SPDX-License-Identifier: Apache-2.0
// `stacksim trace export`: run a PTX workload and write it out as an Accel-Sim trace.
#include "top/trace_command.h"

#include <fmt/format.h>

#include <iostream>
#include <utility>

#include "sim/error.h"
#include "top/run_command.h"

namespace stacksim::top {

namespace {

const char* const kTraceUsage = R"(usage: stacksim trace export [CONFIG] [--workload NAME[:SIZE]] --out DIR [--force]
                             [--set KEY=VALUE]... [--seed N] [--ptx-dir DIR] [--quiet]

Runs the PTX workload as `stacksim run` does (default: vecadd on gtx980), checks its output
against the CPU reference, and writes the executed warp instructions as an Accel-Sim SASS trace:
DIR/kernelslist.g and DIR/kernel-N.traceg (tracer version 4, binary version 70), all at once at
the end. DIR must not exist or be empty (or --force). Replay it with
`stacksim run CONFIG --trace DIR/kernelslist.g`: it issues the same warp instructions, and the
same thread instructions unless a load, store or exit was predicated off in some active lanes.
How PTX becomes SASS lines: docs/accelsim-traces.md#writing-traces.

  CONFIG, --workload, --set, --seed, --ptx-dir, --quiet: as for stacksim run (stacksim run --help)
  --out DIR   the trace folder (required)
  --force     replace a non-empty DIR
)";

}  // namespace

int trace_command(const std::vector<std::string>& args) {
    if (args.size() < 2 || args[1] == "--help" || args[1] == "-h") {
        std::cout << kTraceUsage;
        return args.size() < 2 ? kExitBadInput : kExitOk;
    }
    if (args[1] != "export")
        throw sim::InputError(fmt::format("trace: unknown subcommand '{}' (stacksim trace export --help)", args[1]));
    const std::vector<std::string> rest(args.begin() + 2, args.end());
    for (const std::string& a : rest)
        if (a == "--help" || a == "-h") {
            std::cout << kTraceUsage;
            return kExitOk;
        }
    RunOptions o = parse_run_options(rest);
    for (const auto& [given, name] : {std::pair{!o.trace_list.empty(), "--trace"}, std::pair{!o.apps.empty(), "--app"}})
        if (given) throw sim::InputError(fmt::format("trace export: {} is not accepted (a PTX workload is exported)", name));
    if (o.out_dir.empty()) throw sim::InputError("trace export: --out DIR is required (the trace folder)");
    o.export_trace = true;
    return run_simulation(o);
}

}  // namespace stacksim::top
