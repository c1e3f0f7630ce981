// SPDX-License-Identifier: Apache-2.0
// Fidelity checks: warm I-caches across relaunches, stall accounting over every cycle, one IPC.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <fstream>

#include "tests/system/cli_runner.h"

using namespace stacksim::test;

namespace {
const std::string kTraceDir = std::string(STACKSIM_SOURCE_DIR) + "/../shared/traces/accelsim/vectoradd-100-32";

struct Run {
    nlohmann::json stats, summary;
};

Run run(const std::string& args) {
    const std::string dir = temp_dir();
    CliResult r = run_cli(args + " --quiet --out " + dir);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    return {nlohmann::json::parse(read_file(dir + "/stats.json")),
            nlohmann::json::parse(read_file(dir + "/summary.json"))};
}

/// A trace list launching the vectoradd kernel `n` times (the same code each time).
std::string relaunch_list(unsigned n) {
    const std::string dir = temp_dir();
    write_file(dir + "/kernel-1.traceg", read_file(kTraceDir + "/kernel-1.traceg"));
    std::string list;
    for (unsigned i = 0; i < n; ++i) list += "kernel-1.traceg\n";
    write_file(dir + "/kernelslist.g", list);
    return dir + "/kernelslist.g";
}

/// Sum of gpu.smN.SUFFIX over the SMs.
double sm_sum(const nlohmann::json& stats, const std::string& suffix) {
    double s = 0;
    for (auto it = stats.begin(); it != stats.end(); ++it)
        if (it.key().rfind("gpu.sm", 0) == 0 && it.key().size() > suffix.size() &&
            it.key().compare(it.key().size() - suffix.size(), suffix.size(), suffix) == 0 &&
            it.key().find('.', 4) == it.key().size() - suffix.size())
            s += it.value()["value"].get<double>();
    return s;
}

/// SMs in the run (gpu.smN.active_cycles entries) and SMs that fetched any instruction.
double sm_count(const nlohmann::json& stats, bool used_only) {
    double n = 0;
    for (auto it = stats.begin(); it != stats.end(); ++it)
        if (it.key().rfind("gpu.sm", 0) == 0 && it.key().find(".icache.misses") != std::string::npos &&
            it.key().find('.', 4) + 1 == it.key().size() - std::string("icache.misses").size())
            n += !used_only || it.value()["value"].get<double>() > 0;
    return n;
}

double value(const nlohmann::json& stats, const std::string& key) {
    INFO(key);
    REQUIRE(stats.contains(key));
    return stats[key]["value"].get<double>();
}
}  // namespace

TEST_CASE("icache: 200 launches of the same traced kernel find their code in the I-cache after the first", "[fidelity]") {
    const Run one = run("run gtx1080 --trace " + relaunch_list(1));
    const Run many = run("run gtx1080 --trace " + relaunch_list(200));
    const double cold_misses = sm_sum(one.stats, ".icache.misses");
    REQUIRE(cold_misses > 0);
    // Each SM misses at most once per line of the kernel: no launch after an SM's first misses.
    const double sms_used = sm_count(many.stats, true);
    REQUIRE(sms_used > 1);
    CHECK(sm_sum(many.stats, ".icache.misses") <= sms_used * cold_misses);
    CHECK(sm_sum(many.stats, ".icache.hits") > 150 * sm_sum(one.stats, ".icache.hits"));
    // Once every SM has run the kernel, each launch takes the same number of cycles (no creep),
    // fewer than the cold first launch.
    const auto& k = many.summary["kernels"];
    REQUIRE(k.size() == 200);
    const uint64_t first = k[0]["cycles"].get<uint64_t>();
    const uint64_t warm = k[199]["cycles"].get<uint64_t>();
    INFO("cold " << first << " cycles, warm " << warm);
    CHECK(warm < first);
    for (size_t i = static_cast<size_t>(sms_used); i < k.size(); ++i) {
        INFO("launch " << i);
        CHECK(k[i]["cycles"].get<uint64_t>() == warm);
    }
}

TEST_CASE("stats: every scheduler slot of every cycle with a CTA resident is classified", "[fidelity]") {
    for (const std::string& args : {"run gtx1080 --trace " + kTraceDir + "/kernelslist.g",
                                   std::string("run small --workload matmul:64"),
                                   std::string("run gtx980 --workload bfs:2000")}) {
        INFO(args);
        const Run r = run(args);
        const double schedulers = args.find("gtx980") != std::string::npos ? 4 : 2;
        double slots = 0;
        for (auto it = r.stats.begin(); it != r.stats.end(); ++it)
            if (it.key().rfind("gpu.sm", 0) == 0 && it.key().find(".issue.") != std::string::npos)
                slots += it.value()["value"].get<double>();
        const double active = sm_sum(r.stats, ".active_cycles");
        CHECK(active > 0);
        CHECK(slots == active * schedulers);
        // The kernels' own shares (summary.json issue_slots) cover the same slots.
        double kernel_slots = 0;
        for (const auto& k : r.summary["kernels"])
            for (auto it = k["issue_slots"].begin(); it != k["issue_slots"].end(); ++it)
                kernel_slots += it.value().get<double>();
        // Only the idle slots of a scheduler without warps are charged to no kernel.
        CHECK(kernel_slots <= slots);
        CHECK(kernel_slots >= slots - sm_sum(r.stats, ".issue.stall_idle"));
        // An SM with a CTA resident is active: no SM counts more cycles than the run has.
        CHECK(active <= value(r.stats, "gpu.cycles") * sm_count(r.stats, false));
    }
}

TEST_CASE("stats: gpu.ipc in stats.json is summary.json's ipc, over the kernel cycles", "[fidelity]") {
    const Run r = run("run small --workload matmul:64");
    CHECK(value(r.stats, "gpu.ipc") == Approx(r.summary["ipc"].get<double>()).epsilon(1e-12));
    CHECK(value(r.stats, "gpu.kernel_cycles") == r.summary["kernel_cycles"].get<double>());
    // The whole-run figure includes copies, so it is lower and named differently.
    CHECK(value(r.stats, "gpu.run_ipc") < value(r.stats, "gpu.ipc"));
}

namespace {
// The predictable path of test_memory_hierarchy.cpp: `small` (1 GHz core, GDDR5 at 2 GHz) with
// the hierarchy, the crossbar on the core clock, no refresh, one GDDR5 row per partition chunk.
double pchase_per_step(const std::string& workload, const std::string& extra, double steps) {
    const Run r = run("run small --workload " + workload +
                      " --set memory.model=hierarchy --set memory.crossbar.clock_mhz=1000 "
                      "--set memory.dram.refresh=false --set memory.map.interleave_bytes=2048" + extra);
    const auto& k = r.summary["kernels"];
    REQUIRE(k.size() == 3);
    return static_cast<double>(k[2]["cycles"].get<uint64_t>() - k[1]["cycles"].get<uint64_t>()) / steps;
}
}  // namespace

TEST_CASE("hierarchy: an L2 input latency and a DRAM latency lengthen every access by their cycles", "[fidelity][memory]") {
    // L2 hits (512 KB chase, 4096 steps): each step passes the slice's input stage once.
    const double l2 = pchase_per_step("pchase:512", "", 4096);
    const double l2_rop = pchase_per_step("pchase:512", " --set memory.l2.input_latency=50", 4096);
    INFO("L2 hit per step: " << l2 << " -> " << l2_rop);
    CHECK(l2_rop - l2 == Approx(50).margin(1));
    // DRAM row conflicts (4 KB slices, 128 KB stride, 64 steps): 200 tCK at 2 GHz = 100 core cycles.
    const std::string conflict = " --set memory.l2.size_bytes=4096 --set pchase.stride_bytes=131072";
    const double dram = pchase_per_step("pchase:8192", conflict, 64);
    const double dram_pipe = pchase_per_step("pchase:8192", conflict + " --set memory.dram.latency=200", 64);
    INFO("DRAM per step: " << dram << " -> " << dram_pipe);
    CHECK(dram_pipe - dram == Approx(100).margin(2));
}
