// SPDX-License-Identifier: Apache-2.0
// Workloads through crossbar + L2 slices + DRAM channels, and the memory microbenchmarks.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "memory/dram_timing.h"
#include "noc/crossbar_config.h"
#include "tests/system/cli_runner.h"
#include "top/run_config.h"

using namespace stacksim::test;

namespace {
nlohmann::json summary(const std::string& args) {
    std::string dir = temp_dir();
    CliResult r = run_cli(args + " --quiet --out " + dir);
    INFO(args << "\n" << r.output);
    REQUIRE(r.exit_code == 0);
    return nlohmann::json::parse(read_file(dir + "/summary.json"));
}

/// Cycles of the pointer chase's 2S-step launch minus its S-step launch (S extra steps).
double pchase_step(const std::string& args) {
    auto s = summary("run small --workload " + args);
    const auto& k = s["kernels"];
    REQUIRE(k.size() == 3);
    return static_cast<double>(k[2]["cycles"].get<uint64_t>() - k[1]["cycles"].get<uint64_t>());
}
}  // namespace

TEST_CASE("hierarchy: every library workload verifies through crossbar, L2 and DRAM", "[memory]") {
    auto names = list_section("workloads");
    REQUIRE(names.size() >= 25);
    for (const auto& name : names) {
        if (name == "synthetic" || name == "pchase") continue;  // run last, below
        auto s = summary("run small --workload " + name + " --set memory.model=hierarchy");
        INFO(name);
        CHECK(s["verification"]["passed"] == true);
    }
    auto syn = summary("run small --workload synthetic:2048 --set synthetic.pattern=random "
                       "--set synthetic.store_fraction=0.2 --set synthetic.alu_fraction=0.45 --set memory.model=hierarchy");
    CHECK(syn["verification"]["passed"] == true);
    for (const char* name : {"synthetic", "pchase"}) {  // at their default sizes, like the others
        auto s = summary(std::string("run small --workload ") + name + " --set memory.model=hierarchy");
        INFO(name);
        CHECK(s["verification"]["passed"] == true);
    }
}

TEST_CASE("hierarchy: pointer-chase latency grows L1 < L2 < DRAM", "[memory][pchase]") {
    const std::string h = " --set memory.model=hierarchy";
    double l1 = pchase_step("pchase:8" + h);
    double l2 = pchase_step("pchase:512" + h);
    double dram = pchase_step("pchase:16384" + h);
    INFO("cycles for 4096 extra steps: L1 " << l1 << ", L2 " << l2 << ", DRAM " << dram);
    CHECK(l1 < l2);
    CHECK(l2 < dram);
}

TEST_CASE("hierarchy: DRAM row conflicts cost more than streaming through open rows", "[memory][dram]") {
    const std::string h = " --set memory.model=hierarchy --set memory.l2.size_bytes=4096";
    auto per_step = [&](uint32_t stride) {
        auto s = summary("run small --workload pchase:65536" + h + " --set pchase.stride_bytes=" + std::to_string(stride));
        const auto& k = s["kernels"];
        double steps = std::min(4096.0, 65536.0 * 1024 / stride);
        return static_cast<double>(k[2]["cycles"].get<uint64_t>() - k[1]["cycles"].get<uint64_t>()) / steps;
    };
    double open_rows = per_step(128);
    double conflicts = per_step(131072);  // same bank of the same channel, another row each step
    INFO("per step: open rows " << open_rows << ", row conflicts " << conflicts);
    CHECK(conflicts > open_rows + 10);
}

namespace {
// A predictable path: crossbar on the core clock, no refresh, 2 KB partition chunks (one
// GDDR5 row), `small` preset (1 GHz core, 4 partitions of GDDR5 at 2 GHz).
const std::string kPath = " --set memory.model=hierarchy --set memory.crossbar.clock_mhz=1000 "
                          "--set memory.dram.refresh=false --set memory.map.interleave_bytes=2048";

double per_step(const std::string& workload, const std::string& extra, double steps) {
    auto s = summary("run small --workload " + workload + kPath + extra);
    const auto& k = s["kernels"];
    REQUIRE(k.size() == 3);
    return static_cast<double>(k[2]["cycles"].get<uint64_t>() - k[1]["cycles"].get<uint64_t>()) / steps;
}
}  // namespace

TEST_CASE("hierarchy: pointer-chase latencies match the configured path within 5 percent", "[memory][pchase]") {
    const stacksim::noc::CrossbarConfig xbar;
    const auto l2 = stacksim::top::RunConfig::default_l2();
    const auto dram = stacksim::memory::DramChannelConfig::preset("gddr5");
    const double dram_to_core = 1000.0 / dram.clock_mhz;  // core cycles per DRAM cycle
    // Packets: a one-sector request is a header; its response a header and 32 bytes.
    const double request = 1, response = (xbar.header_bytes + 32 + xbar.width_bytes - 1) / xbar.width_bytes;

    const double l1 = per_step("pchase:8", "", 64);  // 8 KB: 64 lines, all L1 hits
    const double l2_hit = per_step("pchase:512", "", 4096);
    const double l2_expected = l1 + 2 * xbar.latency + request + response + l2.hit_latency;
    // With a 4 KB L2 slice every step misses to DRAM; 128 KB apart = same bank, another row.
    const double conflict = per_step("pchase:8192", " --set memory.l2.size_bytes=4096 --set pchase.stride_bytes=131072", 64);
    const auto& t = dram.timing;
    const double conflict_dram = (t.tRP + t.tRCD + t.tCL) + dram.burst_cycles();
    const double conflict_expected = l2_hit + conflict_dram * dram_to_core;
    INFO("per step: L1 " << l1 << ", L2 " << l2_hit << " (expected " << l2_expected << "), DRAM row conflict "
                         << conflict << " (expected " << conflict_expected << ")");
    CHECK(std::abs(l2_hit - l2_expected) <= 0.05 * l2_expected);
    CHECK(std::abs(conflict - conflict_expected) <= 0.05 * conflict_expected);
}

TEST_CASE("hierarchy: a DRAM row miss costs tRP + tRCD more than a row hit", "[memory][dram]") {
    const auto dram = stacksim::memory::DramChannelConfig::preset("gddr5");
    const double dram_to_core = 1000.0 / dram.clock_mhz;
    const std::string tiny_l2 = " --set memory.l2.size_bytes=4096";
    // Sequential lines: 15 of every 16 steps hit the open row; the 16th returns to a bank
    // with another row open (a conflict). 128 KB apart: every step is a conflict.
    const double mixed = per_step("pchase:2048", tiny_l2, 4096);
    const double conflict = per_step("pchase:8192", tiny_l2 + " --set pchase.stride_bytes=131072", 64);
    const double hit = (mixed - conflict / 16) * 16 / 15;
    const double expected = (dram.timing.tRP + dram.timing.tRCD) * dram_to_core;
    INFO("per step: row hit " << hit << ", row conflict " << conflict << ", difference " << conflict - hit
                              << ", tRP + tRCD = " << expected << " core cycles");
    CHECK(std::abs((conflict - hit) - expected) <= 0.1 * expected);
}

TEST_CASE("hierarchy: a read stream reaches 90 percent of the GDDR5 peak with enough parallelism", "[memory][stream]") {
    // 8 SMs stream 32 MB through 4 GDDR5 channels (4 x 32 GB/s) with 2 KB partition chunks.
    const auto dram = stacksim::memory::DramChannelConfig::preset("gddr5");
    auto s = summary("run small --workload stream_read:2097152 --set gpu.num_sms=8 --set memory.model=hierarchy "
                     "--set memory.map.interleave_bytes=2048");
    const double seconds = static_cast<double>(s["kernels"][0]["cycles"].get<uint64_t>()) / 1e9;  // 1 GHz core
    const double gbps = 16.0 * 2097152 / seconds / 1e9;
    const double peak = 4 * dram.peak_bandwidth_gbps();
    INFO("stream_read: " << gbps << " GB/s of " << peak);
    CHECK(gbps >= 0.9 * peak);
}

TEST_CASE("hierarchy: a read stream reaches 90 percent of the HBM2 peak with per-bank refresh", "[memory][stream]") {
    const auto dram = stacksim::memory::DramChannelConfig::preset("hbm2");
    auto s = summary("run small --workload stream_read:2097152 --set gpu.num_sms=8 --set memory.model=hierarchy "
                     "--set memory.map.interleave_bytes=2048 --set memory.dram.preset=hbm2 "
                     "--set memory.dram.refresh_mode=per_bank");
    const double seconds = static_cast<double>(s["kernels"][0]["cycles"].get<uint64_t>()) / 1e9;
    const double gbps = 16.0 * 2097152 / seconds / 1e9;
    const double peak = 4 * dram.peak_bandwidth_gbps();
    INFO("stream_read: " << gbps << " GB/s of " << peak);
    CHECK(gbps >= 0.9 * peak);
}

TEST_CASE("pcie: a copy takes overhead + latency + bytes / bandwidth within 5 percent", "[memory][pcie]") {
    for (const char* gbps : {"16", "32"}) {
        auto s = summary(std::string("run small --workload pcie_copy:4096 --set pcie.h2d_gbps=") + gbps +
                         " --set pcie.d2h_gbps=" + gbps);
        const double bytes = 4096.0 * 1024;
        const double one = 1.0e-6 + 0.5e-6 + bytes / (std::stod(gbps) * 1e9);  // default setup + latency
        const double measured = s["copy_seconds"].get<double>();
        INFO(gbps << " GB/s: copies took " << measured * 1e6 << " us, predicted " << 2 * one * 1e6);
        CHECK(std::abs(measured - 2 * one) <= 0.05 * 2 * one);
        CHECK(s["verification"]["passed"] == true);
    }
}

TEST_CASE("pcie: overlapping copies of two applications count once in the copy time", "[memory][pcie]") {
    // Both applications start at once and copy over the one link: their copies overlap in
    // time, so the summed copy durations would exceed the run (issue 32: "2348 us simulated,
    // of which 6425 us PCIe copies"); the union of the intervals cannot.
    auto one = summary("run small --workload pcie_copy:2048");
    auto two = summary("run small --app pcie_copy:2048 --app pcie_copy:2048 --set run.alone_runs=false");
    INFO("one app: " << one["copy_seconds"] << " s of " << one["simulated_seconds"] << " s; two: "
                     << two["copy_seconds"] << " s of " << two["simulated_seconds"]);
    // Here copies are all the run does: the union is the whole run (rounding aside).
    CHECK(two["copy_seconds"].get<double>() <= two["simulated_seconds"].get<double>() * (1 + 1e-9));
    CHECK(two["copy_seconds"].get<double>() > one["copy_seconds"].get<double>());
}

TEST_CASE("hierarchy: seeded random traffic reads what was last written", "[memory][random]") {
    // Random read-modify-writes and atomics through write-through and write-back L1s, the L2
    // slices and DRAM; every word and counter is compared with a CPU replay.
    for (const char* policy : {"write_through", "write_back"})
        for (const char* seed : {"1", "77"}) {
            auto s = summary(std::string("run small --workload random_traffic:1024 --set memory.model=hierarchy "
                                         "--set gpu.l1.write_policy=") + policy + " --seed " + seed);
            INFO(policy << " seed " << seed);
            CHECK(s["verification"]["passed"] == true);
            CHECK(s["verification"]["checked"].get<uint64_t>() > 262144);
        }
}

TEST_CASE("hierarchy: two identical runs write byte-identical stats.json", "[memory][determinism]") {
    std::string a = temp_dir(), b = temp_dir();
    const std::string args = "run gtx980 --workload bfs:2000 --seed 9 --quiet --out ";
    REQUIRE(run_cli(args + a).exit_code == 0);
    REQUIRE(run_cli(args + b).exit_code == 0);
    const std::string sa = read_file(a + "/stats.json");
    CHECK(sa.find("gpu.mem.dram_0.row_hits") != std::string::npos);
    CHECK(sa == read_file(b + "/stats.json"));
}
