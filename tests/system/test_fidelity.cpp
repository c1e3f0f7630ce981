// SPDX-License-Identifier: Apache-2.0
// Fidelity checks: warm I-caches across relaunches, stall accounting over every cycle, one IPC.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <fstream>

#include "tests/system/cli_runner.h"
#include "tests/test_data.h"

using namespace stacksim::test;

namespace {
/// Accel-Sim's own vectoradd trace (third-party, ../shared): the checks against Accel-Sim's
/// figures use it and report themselves skipped without it.
std::string accelsim_vectoradd() { return third_party_trace("accelsim/vectoradd-100-32"); }

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
    write_file(dir + "/kernel-1.traceg", read_file(accelsim_vectoradd() + "/kernel-1.traceg"));
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

/// Sum of gpu.mem.UNIT_N.SUFFIX over the units (UNIT l2 or dram).
double mem_sum(const nlohmann::json& stats, const std::string& unit, const std::string& suffix) {
    const std::string head = "gpu.mem." + unit + "_", tail = "." + suffix;
    double s = 0;
    for (auto it = stats.begin(); it != stats.end(); ++it) {
        const std::string& k = it.key();
        if (k.rfind(head, 0) == 0 && k.size() > head.size() + tail.size() &&
            k.compare(k.size() - tail.size(), tail.size(), tail) == 0 &&
            k.find('.', head.size()) == k.size() - tail.size())
            s += it.value()["value"].get<double>();
    }
    return s;
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
    for (const std::string& args : {"run gtx1080 --trace " + data_path("accelsim/vecadd-256/kernelslist.g"),
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

TEST_CASE("icache: with icache_fill = memory a miss reads its line through the L2 and DRAM", "[fidelity][memory]") {
    // vectoradd's code spans two 128-byte lines: one SM misses on each once, and the reads reach
    // the L2 slices as instruction reads (Accel-Sim counts 2 instruction accesses at its L2).
    const std::string trace = "run gtx1080 --trace " + accelsim_vectoradd() + "/kernelslist.g";
    const Run latency = run(trace + " --set gpu.sm.icache_fill=latency --set gpu.sm.icache_miss_latency=275");
    const Run memory = run(trace + " --set gpu.sm.icache_fill=memory");
    CHECK(mem_sum(latency.stats, "l2", "instruction_reads") == 0);
    CHECK(mem_sum(memory.stats, "l2", "instruction_reads") == 2);
    CHECK(mem_sum(memory.stats, "l2", "reads") == mem_sum(latency.stats, "l2", "reads") + 2);
    // Through memory the fill time follows the DRAM latency; the fixed fill does not.
    const std::string slow = " --set memory.dram.latency=1000";
    const Run latency_slow = run(trace + " --set gpu.sm.icache_fill=latency --set gpu.sm.icache_miss_latency=275" + slow);
    const Run memory_slow = run(trace + " --set gpu.sm.icache_fill=memory" + slow);
    auto cycles = [](const Run& r) { return r.summary["kernels"][0]["cycles"].get<double>(); };
    INFO("latency fill " << cycles(latency) << " -> " << cycles(latency_slow) << ", memory fill " << cycles(memory)
                         << " -> " << cycles(memory_slow));
    // 844 tCK at 2500 MHz = 543 core cycles more per DRAM access: one for the loads on the
    // critical path with a fixed fill, three more (two serial line fills) through memory.
    CHECK(cycles(memory_slow) - cycles(memory) > cycles(latency_slow) - cycles(latency) + 2 * 500);
    // A second SM running the same code finds it in the L2.
    const Run twice = run("run gtx1080 --trace " + relaunch_list(2) + " --set gpu.sm.icache_fill=memory");
    CHECK(mem_sum(twice.stats, "l2", "instruction_reads") == 4);
    CHECK(mem_sum(twice.stats, "dram", "reads") < 2 * mem_sum(memory.stats, "dram", "reads"));
}

TEST_CASE("l2: write_miss = forward_and_fetch sends a missing write to DRAM, which acknowledges it", "[fidelity][memory]") {
    const std::string trace = "run gtx1080 --trace " + accelsim_vectoradd() + "/kernelslist.g";
    const Run allocate = run(trace + " --set memory.l2.write_miss=allocate");
    const Run forward = run(trace + " --set memory.l2.write_miss=forward_and_fetch");
    // The 4 store lines miss: allocated silently, or written to DRAM and fetched.
    CHECK(mem_sum(allocate.stats, "dram", "writes") == 0);
    CHECK(mem_sum(forward.stats, "dram", "writes") == 4);
    CHECK(mem_sum(forward.stats, "l2", "write_miss_fetches") == 4);
    CHECK(mem_sum(forward.stats, "dram", "reads") == mem_sum(allocate.stats, "dram", "reads") + 4);
    // The stores' acknowledgement now waits for DRAM, which is on the kernel's critical path.
    const double a = allocate.summary["kernels"][0]["cycles"].get<double>();
    const double f = forward.summary["kernels"][0]["cycles"].get<double>();
    INFO("allocate " << a << " cycles, forward_and_fetch " << f);
    CHECK(f > a + 100);
    // A write hit stays in the write-back L2: the relaunch's stores hit the lines now resident.
    const Run twice = run("run gtx1080 --trace " + relaunch_list(2) + " --set memory.l2.write_miss=forward_and_fetch");
    CHECK(mem_sum(twice.stats, "dram", "writes") == 4);
}
