// SPDX-License-Identifier: Apache-2.0
// Every library kernel verifies in every allocation mode: device (explicit copies), ideal, and
// managed (demand paging) with GPU memory at 100%, 75% and 50% of its footprint.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/system/cli_runner.h"

using namespace stacksim::test;

namespace {

struct Outcome {
    nlohmann::json summary, stats;
};

Outcome run(const std::string& workload, const std::string& sets) {
    const std::string dir = temp_dir();
    const CliResult r = run_cli("run small --workload " + workload + " --quiet --out " + dir + sets);
    INFO(workload << sets << ":\n" << r.output);
    REQUIRE(r.exit_code == 0);
    Outcome o{nlohmann::json::parse(read_file(dir + "/summary.json")), nlohmann::json::parse(read_file(dir + "/stats.json"))};
    CHECK(o.summary["verification"]["passed"] == true);
    CHECK(o.summary["verification"]["checked"].get<uint64_t>() > 0);
    return o;
}

double stat(const Outcome& o, const std::string& name) { return o.stats.at(name).at("value").get<double>(); }

/// 4 KB pages so that even small footprints span many pages.
void verify_in_every_mode(const std::string& workload) {
    const std::string pages = " --set uvm.page_bytes=4096";
    const Outcome device = run(workload, " --set uvm.mode=device" + pages);
    const Outcome ideal = run(workload, " --set uvm.mode=ideal" + pages);
    CHECK(stat(device, "gpu.gmmu.faults.far") == 0);
    CHECK(ideal.summary["copy_seconds"].get<double>() == 0);
    CHECK(ideal.summary["simulated_seconds"].get<double>() <= device.summary["simulated_seconds"].get<double>());
    const double footprint = stat(run(workload, " --set uvm.mode=managed" + pages), "gpu.gmmu.capacity_pages");
    for (double fraction : {1.0, 0.75, 0.5}) {
        const Outcome m = run(workload, " --set uvm.mode=managed --set uvm.capacity_fraction=" +
                                            std::to_string(fraction) + pages);
        INFO(workload << " at " << fraction << " of " << footprint << " pages");
        const double capacity = stat(m, "gpu.gmmu.capacity_pages");
        CHECK(capacity == std::max(1.0, std::floor(footprint * fraction + 1e-9)));
        CHECK(stat(m, "gpu.gmmu.pages.gpu_valid") + stat(m, "gpu.gmmu.pages.partial_valid") <= capacity);
        // With room for the whole footprint nothing is evicted; every far fault takes a frame
        // and frames come back only by eviction or by a host access migrating a page back,
        // so more faults than frames plus migrations back means pages were evicted.
        const double faults = stat(m, "gpu.gmmu.faults.far");
        if (fraction == 1.0) CHECK(stat(m, "gpu.gmmu.evictions") == 0);
        if (faults > capacity + stat(m, "gpu.gmmu.faults.host")) CHECK(stat(m, "gpu.gmmu.evictions") > 0);
        // Whole-page migration (the default) moves whole pages only.
        const double migrated = stat(m, "gpu.gmmu.bytes_migrated");
        CHECK(std::fmod(migrated, 4096.0) == 0);
        if (faults > 0) CHECK(migrated >= 4096);
        CHECK(m.summary["warp_instructions"] == device.summary["warp_instructions"]);
    }
}

}  // namespace

TEST_CASE("uvm library: 2dconv verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("2dconv:40"); }
TEST_CASE("uvm library: 3dconv verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("3dconv:16"); }
TEST_CASE("uvm library: atax verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("atax:64"); }
TEST_CASE("uvm library: backprop verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("backprop:256"); }
TEST_CASE("uvm library: bfs verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("bfs:1000"); }
TEST_CASE("uvm library: bicg verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("bicg:64"); }
TEST_CASE("uvm library: blackscholes verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("blackscholes:2000"); }
TEST_CASE("uvm library: cons verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("cons:40"); }
TEST_CASE("uvm library: corr verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("corr:32"); }
TEST_CASE("uvm library: covar verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("covar:32"); }
TEST_CASE("uvm library: cp verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("cp:64"); }
TEST_CASE("uvm library: divergence verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("divergence:2000"); }
TEST_CASE("uvm library: fdtd2d verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("fdtd2d:40"); }
TEST_CASE("uvm library: gemm verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("gemm:32"); }
TEST_CASE("uvm library: gesummv verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("gesummv:64"); }
TEST_CASE("uvm library: hotspot verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("hotspot:32"); }
TEST_CASE("uvm library: kmeans verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("kmeans:500"); }
TEST_CASE("uvm library: lib verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("lib:512"); }
TEST_CASE("uvm library: lps verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("lps:16"); }
TEST_CASE("uvm library: lud verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("lud:48"); }
TEST_CASE("uvm library: matmul verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("matmul:32"); }
TEST_CASE("uvm library: mum verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("mum:2000"); }
TEST_CASE("uvm library: mvt verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("mvt:64"); }
TEST_CASE("uvm library: nn verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("nn:1"); }
TEST_CASE("uvm library: pathfinder verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("pathfinder:1000"); }
TEST_CASE("uvm library: pcie_copy verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("pcie_copy:64"); }
TEST_CASE("uvm library: random_traffic verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("random_traffic:32"); }
TEST_CASE("uvm library: reduction verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("reduction:4096"); }
TEST_CASE("uvm library: saxpy verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("saxpy:4096"); }
TEST_CASE("uvm library: sad verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("sad:32"); }
TEST_CASE("uvm library: scan verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("scan:4096"); }
TEST_CASE("uvm library: srad verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("srad:32"); }
TEST_CASE("uvm library: stencil2d verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("stencil2d:32"); }
TEST_CASE("uvm library: stream verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("stream:8192"); }
TEST_CASE("uvm library: stream_read verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("stream_read:8192"); }
TEST_CASE("uvm library: vecadd verifies in every allocation mode", "[uvm][library]") { verify_in_every_mode("vecadd:4096"); }

TEST_CASE("uvm library: the test list covers the whole kernel library", "[uvm][library]") {
    const std::vector<std::string> expected = {
        "2dconv", "3dconv", "atax", "backprop", "bfs", "bicg", "blackscholes", "cons", "corr", "covar", "cp",
        "divergence", "fdtd2d", "gemm", "gesummv", "hotspot", "kmeans", "lib", "lps", "lud", "matmul", "mum", "mvt",
        "nn", "pathfinder", "pcie_copy", "random_traffic", "reduction", "sad", "saxpy", "scan", "srad", "stencil2d",
        "stream", "stream_read", "vecadd"};
    std::vector<std::string> listed = list_section("workloads");
    listed.erase(std::remove_if(listed.begin(), listed.end(),
                                [](const std::string& n) { return n == "synthetic" || n == "pchase"; }),
                 listed.end());
    CHECK(listed == expected);
}
