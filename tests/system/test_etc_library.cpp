// SPDX-License-Identifier: Apache-2.0
// The thesis's 15 chapter-3 applications verify with every ETC technique on (proactive eviction,
// dynamic SM throttling, capacity compression) with GPU memory at 100%, 75% and 50% of their
// footprint.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/system/cli_runner.h"

using namespace stacksim::test;

namespace {

nlohmann::json run(const std::string& workload, const std::string& sets, nlohmann::json* stats = nullptr) {
    const std::string dir = temp_dir();
    const CliResult r = run_cli("run small --workload " + workload + " --quiet --out " + dir + sets);
    INFO(workload << sets << ":\n" << r.output);
    REQUIRE(r.exit_code == 0);
    nlohmann::json summary = nlohmann::json::parse(read_file(dir + "/summary.json"));
    CHECK(summary["verification"]["passed"] == true);
    CHECK(summary["verification"]["checked"].get<uint64_t>() > 0);
    if (stats) *stats = nlohmann::json::parse(read_file(dir + "/stats.json"));
    return summary;
}

// 4 KB pages and 16 KB eviction groups so that the small footprints oversubscribe; short
// samples and epochs so that the techniques engage within these short runs.
void verify_with_etc(const std::string& workload) {
    const std::string etc = " --set uvm.mode=managed --set uvm.page_bytes=4096 --set uvm.eviction_granularity_bytes=16384"
                            " --set uvm.writeback_before_reuse=true --set uvm.etc.mode=manual"
                            " --set uvm.etc.proactive_eviction=true --set uvm.etc.throttling=dynamic"
                            " --set uvm.etc.compression=true --set uvm.etc.sample_cycles=2000"
                            " --set uvm.etc.detection_cycles=20000 --set uvm.etc.execution_cycles=20000"
                            " --set uvm.etc.proactive_free_bytes=16384";
    const nlohmann::json plain = run(workload, " --set uvm.mode=managed --set uvm.page_bytes=4096");
    for (double fraction : {1.0, 0.75, 0.5}) {
        INFO(workload << " at " << fraction);
        nlohmann::json stats;
        const nlohmann::json s = run(workload, etc + " --set uvm.capacity_fraction=" + std::to_string(fraction), &stats);
        CHECK(s["warp_instructions"] == plain["warp_instructions"]);
        CHECK(stats.at("gpu.etc.oversubscribed").at("value").get<double>() == (fraction < 1.0 ? 1 : 0));
        // The compression switch reaches the engine: every page that arrived was measured.
        CHECK(stats.at("gpu.gmmu.compression.pages").at("value").get<double>() > 0);
    }
}

}  // namespace

TEST_CASE("etc library: 2dconv verifies with ETC at 100/75/50%", "[etc][library]") { verify_with_etc("2dconv:40"); }
TEST_CASE("etc library: 3dconv verifies with ETC at 100/75/50%", "[etc][library]") { verify_with_etc("3dconv:16"); }
TEST_CASE("etc library: corr verifies with ETC at 100/75/50%", "[etc][library]") { verify_with_etc("corr:32"); }
TEST_CASE("etc library: covar verifies with ETC at 100/75/50%", "[etc][library]") { verify_with_etc("covar:32"); }
TEST_CASE("etc library: fdtd2d verifies with ETC at 100/75/50%", "[etc][library]") { verify_with_etc("fdtd2d:40"); }
TEST_CASE("etc library: lud verifies with ETC at 100/75/50%", "[etc][library]") { verify_with_etc("lud:48"); }
TEST_CASE("etc library: srad verifies with ETC at 100/75/50%", "[etc][library]") { verify_with_etc("srad:32"); }
TEST_CASE("etc library: scan verifies with ETC at 100/75/50%", "[etc][library]") { verify_with_etc("scan:4096"); }
TEST_CASE("etc library: atax verifies with ETC at 100/75/50%", "[etc][library]") { verify_with_etc("atax:64"); }
TEST_CASE("etc library: bicg verifies with ETC at 100/75/50%", "[etc][library]") { verify_with_etc("bicg:64"); }
TEST_CASE("etc library: gesummv verifies with ETC at 100/75/50%", "[etc][library]") { verify_with_etc("gesummv:64"); }
TEST_CASE("etc library: mvt verifies with ETC at 100/75/50%", "[etc][library]") { verify_with_etc("mvt:64"); }
TEST_CASE("etc library: sad verifies with ETC at 100/75/50%", "[etc][library]") { verify_with_etc("sad:32"); }
TEST_CASE("etc library: lps verifies with ETC at 100/75/50%", "[etc][library]") { verify_with_etc("lps:16"); }
TEST_CASE("etc library: cons verifies with ETC at 100/75/50%", "[etc][library]") { verify_with_etc("cons:40"); }
