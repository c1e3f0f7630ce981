// SPDX-License-Identifier: Apache-2.0
// Every seed-study library workload verifies on the simulator under every listed warp scheduler.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/system/cli_runner.h"

using namespace stacksim::test;

namespace {

/// The scheduler names under the `warp schedulers` heading of `stacksim list`: lines
/// "  NAME  description" up to the next heading (a line not starting with two spaces).
std::vector<std::string> warp_schedulers() {
    const CliResult r = run_cli("list");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    std::vector<std::string> names;
    std::istringstream lines(r.output);
    std::string line;
    bool in_section = false;
    while (std::getline(lines, line)) {
        if (line.rfind("  ", 0) != 0) {
            in_section = line.rfind("warp schedulers", 0) == 0;
            continue;
        }
        if (!in_section) continue;
        std::istringstream fields(line);
        std::string name;
        if (fields >> name) names.push_back(name);
    }
    REQUIRE_FALSE(names.empty());
    return names;
}

/// Runs `workload` (NAME:SIZE) once per warp scheduler: each run must exit 0 and verify at
/// least one element; the schedulers only reorder the work, so instruction counts agree.
void verify_under_every_scheduler(const std::string& workload) {
    double instructions = -1;
    for (const std::string& sched : warp_schedulers()) {
        const std::string dir = temp_dir();
        const CliResult r = run_cli("run small --workload " + workload +
                                    " --set gpu.sm.warp_scheduler=" + sched + " --quiet --out " + dir);
        INFO(workload << " with " << sched << ":\n" << r.output);
        REQUIRE(r.exit_code == 0);
        const auto s = nlohmann::json::parse(read_file(dir + "/summary.json"));
        CHECK(s["verification"]["passed"] == true);
        CHECK(s["verification"]["checked"].get<uint64_t>() > 0);
        CHECK(s["cycles"].get<double>() > 0);
        const double wi = s["warp_instructions"].get<double>();
        if (instructions < 0) instructions = wi;
        CHECK(wi == instructions);
    }
}

}  // namespace

TEST_CASE("library: 3dconv verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("3dconv:20"); }
TEST_CASE("library: backprop verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("backprop:512"); }
TEST_CASE("library: bfs verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("bfs:2000"); }
TEST_CASE("library: bicg verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("bicg:100"); }
TEST_CASE("library: blackscholes verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("blackscholes:3001"); }
TEST_CASE("library: cons verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("cons:70"); }
TEST_CASE("library: corr verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("corr:40"); }
TEST_CASE("library: covar verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("covar:40"); }
TEST_CASE("library: cp verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("cp:64"); }
TEST_CASE("library: fdtd2d verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("fdtd2d:50"); }
TEST_CASE("library: gemm verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("gemm:40"); }
TEST_CASE("library: gesummv verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("gesummv:100"); }
TEST_CASE("library: hotspot verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("hotspot:40"); }
TEST_CASE("library: kmeans verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("kmeans:1000"); }
TEST_CASE("library: lib verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("lib:300"); }
TEST_CASE("library: lps verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("lps:20"); }
TEST_CASE("library: lud verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("lud:48"); }
TEST_CASE("library: mvt verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("mvt:100"); }
TEST_CASE("library: mum verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("mum:1000"); }
TEST_CASE("library: nn verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("nn:1"); }
TEST_CASE("library: pathfinder verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("pathfinder:1000"); }
TEST_CASE("library: sad verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("sad:36"); }
TEST_CASE("library: scan verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("scan:20000"); }
TEST_CASE("library: srad verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("srad:48"); }
TEST_CASE("library: stencil2d verifies under every warp scheduler", "[library]") { verify_under_every_scheduler("stencil2d:50"); }

TEST_CASE("library: the Polybench workloads verify with PolyBench/GPU's deterministic inputs, and a bad choice is refused",
          "[library]") {
    for (const char* w : {"atax", "bicg", "mvt", "gesummv", "corr", "covar", "3dconv", "fdtd2d"}) {
        const std::string dir = temp_dir();
        const CliResult r = run_cli(std::string("run small --workload ") + w + " --set " + w +
                                    ".inputs=polybench --quiet --out " + dir);
        INFO(w << ":\n" << r.output);
        REQUIRE(r.exit_code == 0);
        const auto s = nlohmann::json::parse(read_file(dir + "/summary.json"));
        CHECK(s["verification"]["passed"] == true);
        CHECK(s["verification"]["checked"].get<uint64_t>() > 0);
    }
    const CliResult bad = run_cli("run small --workload atax --set atax.inputs=zeros --out " + temp_dir());
    CHECK(bad.exit_code == 2);
    CHECK(bad.output.find("atax.inputs") != std::string::npos);
}
