// SPDX-License-Identifier: Apache-2.0
// End-to-end: the GPU-wide totals of stats.json are the sums of the per-instance statistics.
#include <catch2/catch.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <regex>

#include "tests/system/cli_runner.h"

using namespace stacksim::test;

namespace {

/// Sum of the values of every statistic whose name matches `pattern`, and how many there are.
std::pair<double, int> sum_of(const nlohmann::json& stats, const std::string& pattern) {
    const std::regex re(pattern);
    double s = 0;
    int n = 0;
    for (auto& [name, v] : stats.items())
        if (std::regex_match(name, re)) {
            s += v["value"].get<double>();
            ++n;
        }
    return {s, n};
}

double value(const nlohmann::json& stats, const std::string& name) {
    INFO(name);
    REQUIRE(stats.contains(name));
    return stats[name]["value"].get<double>();
}

}  // namespace

TEST_CASE("gpu totals: L1, L2, DRAM and SIMT totals sum every SM, slice and channel", "[stats][totals]") {
    const std::string dir = temp_dir();
    CliResult r = run_cli("run gtx980 --workload atax:256 --out " + dir);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const auto s = nlohmann::json::parse(read_file(dir + "/stats.json"));

    const auto l1_reads = sum_of(s, R"(gpu\.sm\d+_l1\.reads)"), l1_hits = sum_of(s, R"(gpu\.sm\d+_l1\.read_hits)");
    CHECK(l1_reads.second == 16);
    CHECK(value(s, "gpu.l1.reads") == l1_reads.first);
    CHECK(value(s, "gpu.l1.read_hits") == l1_hits.first);
    CHECK(value(s, "gpu.l1.hit_rate") == Approx(l1_hits.first / l1_reads.first));
    CHECK(value(s, "gpu.l1.read_hits") > 0);

    const auto l2_reads = sum_of(s, R"(gpu\.mem\.l2_\d+\.reads)"), l2_hits = sum_of(s, R"(gpu\.mem\.l2_\d+\.read_hits)");
    CHECK(l2_reads.second == 8);
    CHECK(value(s, "gpu.mem.l2.reads") == l2_reads.first);
    CHECK(value(s, "gpu.mem.l2.hit_rate") == Approx(l2_hits.first / l2_reads.first));

    const auto bytes = sum_of(s, R"(gpu\.mem\.dram_\d+\.bytes)"), peak = sum_of(s, R"(gpu\.mem\.dram_\d+\.peak_bandwidth_gbps)");
    CHECK(value(s, "gpu.mem.dram.bytes") == bytes.first);
    CHECK(value(s, "gpu.mem.dram.bytes") > 0);
    CHECK(value(s, "gpu.mem.dram.peak_bandwidth_gbps") == Approx(peak.first));
    CHECK(value(s, "gpu.mem.dram.bandwidth_gbps") == Approx(sum_of(s, R"(gpu\.mem\.dram_\d+\.bandwidth_gbps)").first));
    CHECK(value(s, "gpu.mem.dram.bandwidth_utilization") ==
          Approx(value(s, "gpu.mem.dram.bandwidth_gbps") / peak.first));

    const double threads = sum_of(s, R"(gpu\.sm\d+\.thread_instructions)").first;
    CHECK(value(s, "gpu.thread_instructions") == threads);
    CHECK(value(s, "gpu.simt_efficiency") == Approx(threads / (32 * value(s, "gpu.warp_instructions"))));

    // The printed summary shows the same totals.
    CHECK(r.output.find(fmt::format("GPU-wide: SIMT efficiency {:.3f}, L1 hit rate {:.1f}% of {:.0f} reads, L2 hit rate "
                                    "{:.1f}% of {:.0f} reads, DRAM {:.2f} GB/s",
                                    value(s, "gpu.simt_efficiency"), 100 * value(s, "gpu.l1.hit_rate"), l1_reads.first,
                                    100 * value(s, "gpu.mem.l2.hit_rate"), l2_reads.first,
                                    value(s, "gpu.mem.dram.bandwidth_gbps"))) != std::string::npos);
}

TEST_CASE("gpu totals: a divergent kernel on the simple memory has SIMT efficiency below 1 and no L2 or DRAM totals",
          "[stats][totals]") {
    const std::string dir = temp_dir();
    CliResult r = run_cli("run small --workload divergence:256 --out " + dir);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const auto s = nlohmann::json::parse(read_file(dir + "/stats.json"));
    CHECK(value(s, "gpu.simt_efficiency") < 0.9);
    CHECK(value(s, "gpu.simt_efficiency") > 0.1);
    CHECK_FALSE(s.contains("gpu.mem.l2.hit_rate"));
    CHECK_FALSE(s.contains("gpu.mem.dram.bandwidth_gbps"));
    CHECK(r.output.find(fmt::format("GPU-wide: SIMT efficiency {:.3f}", value(s, "gpu.simt_efficiency"))) !=
          std::string::npos);
    CHECK(r.output.find(fmt::format(", memory {:.2f} GB/s", value(s, "gpu.mem.memory.bandwidth_gbps"))) != std::string::npos);
}
