// SPDX-License-Identifier: Apache-2.0
// Every library workload verifies under every warp scheduler, schedulers change timing.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "tests/system/cli_runner.h"

using namespace stacksim::test;

namespace {

struct Outcome {
    double cycles = 0;
    double instructions = 0;
};

Outcome run_verified(const std::string& workload, const std::string& scheduler) {
    std::string dir = temp_dir();
    CliResult r = run_cli("run small --workload " + workload + " --set gpu.sm.warp_scheduler=" + scheduler +
                          " --quiet --out " + dir);
    INFO(workload << " with " << scheduler << ":\n" << r.output);
    REQUIRE(r.exit_code == 0);
    auto s = nlohmann::json::parse(read_file(dir + "/summary.json"));
    REQUIRE(s["verification"]["passed"] == true);
    CHECK(s["verification"]["checked"].get<uint64_t>() > 0);
    return {s["cycles"].get<double>(), s["warp_instructions"].get<double>()};
}

void verify_under_all(const std::string& workload) {
    const std::vector<std::string> schedulers = warp_schedulers();
    REQUIRE(schedulers.size() >= 5);
    Outcome first = run_verified(workload, schedulers[0]);
    CHECK(first.cycles > 0);
    for (size_t i = 1; i < schedulers.size(); ++i) {
        // The schedulers reorder the same work: identical instruction counts.
        CHECK(run_verified(workload, schedulers[i]).instructions == first.instructions);
    }
}

}  // namespace

TEST_CASE("workload: vecadd verifies under every scheduler", "[workload]") { verify_under_all("vecadd:5000"); }
TEST_CASE("workload: saxpy verifies under every scheduler", "[workload]") { verify_under_all("saxpy:5000"); }
TEST_CASE("workload: reduction verifies under every scheduler", "[workload]") { verify_under_all("reduction:20000"); }
TEST_CASE("workload: matmul verifies under every scheduler", "[workload]") { verify_under_all("matmul:40"); }
TEST_CASE("workload: divergence verifies under every scheduler", "[workload]") { verify_under_all("divergence:3000"); }
TEST_CASE("workload: atax verifies under every scheduler", "[workload]") { verify_under_all("atax:100"); }
TEST_CASE("workload: 2dconv verifies under every scheduler", "[workload]") { verify_under_all("2dconv:70"); }

TEST_CASE("workload: LRR and GTO give different cycle counts", "[workload][scheduler]") {
    Outcome lrr = run_verified("matmul:64", "lrr");
    Outcome gto = run_verified("matmul:64", "gto");
    CHECK(lrr.instructions == gto.instructions);
    CHECK(lrr.cycles != gto.cycles);
}

TEST_CASE("workload: divergence lowers SIMT efficiency, uniform code keeps it at 1", "[workload][simt]") {
    std::string a = temp_dir(), b = temp_dir();
    REQUIRE(run_cli("run small --workload divergence:4096 --quiet --out " + a).exit_code == 0);
    REQUIRE(run_cli("run small --workload vecadd:4096 --quiet --out " + b).exit_code == 0);
    auto div = nlohmann::json::parse(read_file(a + "/stats.json"));
    auto uni = nlohmann::json::parse(read_file(b + "/stats.json"));
    CHECK(div["gpu.sm0.simt_efficiency"]["value"].get<double>() < 0.8);
    CHECK(div["gpu.sm0.divergent_branches"]["value"].get<double>() > 0);
    CHECK(uni["gpu.sm0.simt_efficiency"]["value"].get<double>() == Approx(1.0));
    CHECK(uni["gpu.sm0.divergent_branches"]["value"].get<double>() == 0);
}
