// SPDX-License-Identifier: Apache-2.0
// The crossbar's rotating input priority: with memory.crossbar.priority = "worked" a kernel's
// cycles do not depend on when it starts; with "cycle" (the absolute cycle number) they do.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "tests/system/cli_runner.h"

using namespace stacksim;

namespace {
// The kernel's cycles of vecadd on rtx3070 (crossbar, 16 partitions), started after `latency_us`.
double kernel_cycles(const std::string& priority, double latency_us) {
    const std::string dir = test::temp_dir() + "/out";
    const test::CliResult r =
        test::run_cli("run rtx3070 --workload vecadd:65536 --set host.timed_copies=false --set host.launch_latency_us=" +
                      std::to_string(latency_us) + " --set 'memory.crossbar.priority=\"" + priority + "\"' --quiet --out " +
                      dir);
    REQUIRE(r.exit_code == 0);
    return test::summary_number(test::read_file(dir + "/summary.json"), "kernel_cycles");
}
}  // namespace

TEST_CASE("crossbar: with priority \"worked\" a kernel's cycles do not depend on its start time", "[crossbar][system]") {
    // Starts shifted by whole multiples of the core and DRAM clock periods (883 and 286 ps), so
    // only the crossbar's arbitration can tell the runs apart.
    std::set<double> worked, cycle;
    for (int k : {0, 1, 2, 3}) {
        const double us = 0.252538 * k;
        worked.insert(kernel_cycles("worked", us));
        cycle.insert(kernel_cycles("cycle", us));
    }
    CHECK(worked.size() == 1);
    CHECK(cycle.size() > 1);  // the absolute cycle number moves the arbitration
}
