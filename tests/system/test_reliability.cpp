// SPDX-License-Identifier: Apache-2.0
// Hostile input on the command line: each reproducer of issue 17 ends in one line and exit 2,
// quickly, or runs correctly; results folders are written whole.
#include <catch2/catch.hpp>

#include <bzlib.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "tests/system/cli_runner.h"
#include "tests/test_data.h"

using namespace stacksim::test;
namespace fs = std::filesystem;

namespace {

struct Timed {
    CliResult r;
    double seconds;
};

Timed timed(const std::string& args) {
    const auto t0 = std::chrono::steady_clock::now();
    CliResult r = run_cli(args);
    return {r, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
}

/// `args` is refused up front: exit 2, one line naming `key`, well within a second of work
/// (the bound allows for a loaded test machine).
void refused(const std::string& args, const std::string& key) {
    Timed t = timed(args);
    INFO(args << "\n" << t.r.output);
    CHECK(t.r.exit_code == 2);
    CHECK(t.r.output.find(key) != std::string::npos);
    CHECK(std::count(t.r.output.begin(), t.r.output.end(), '\n') == 1);
    CHECK(t.seconds < 5.0);
}

}  // namespace

TEST_CASE("reliability: out-of-range clocks, latencies and bandwidths are refused naming the key", "[cli][errors]") {
    const std::string run = "run small --workload vecadd:256 --set ";
    for (const char* key : {"memory.clock_mhz", "memory.crossbar.clock_mhz", "memory.noc.clock_mhz"})
        refused(run + key + "=3e6", key);
    for (const char* v : {"3e6", "1e30", "inf", "1e-6", "nan"}) refused(run + "gpu.core_clock_mhz=" + v, "gpu.core_clock_mhz");
    const std::string copy = "run small --workload pcie_copy:64 --set ";
    refused(copy + "pcie.latency_ns=1e30", "pcie.latency_ns");
    refused(copy + "pcie.h2d_gbps=1e-300", "pcie.h2d_gbps");
    refused(copy + "pcie.d2h_gbps=1e-300", "pcie.d2h_gbps");
    refused(copy + "host.memory.bandwidth_gbps=1e-300", "host.memory.bandwidth_gbps");
    refused(copy + "pcie.per_transfer_overhead_ns=1e30", "pcie.per_transfer_overhead_ns");
    refused(run + "uvm.fault_latency_ns=inf", "uvm.fault_latency_ns");
    refused(run + "uvm.range_copy_setup_ns=-1e30", "uvm.range_copy_setup_ns");
    refused(run + "uvm.range_copy_setup_ns=nan", "uvm.range_copy_setup_ns");
    refused("noc --set traffic.warmup=100000000", "traffic.warmup");
    refused("noc --set traffic.measure=100000000", "traffic.measure");
}

TEST_CASE("reliability: sizes and counts that would exhaust memory are refused naming the key", "[cli][errors]") {
    const std::string run = "run small --workload vecadd:256 --set ";
    refused(run + "gpu.l1.size_bytes=4294967296", "gpu.l1.size_bytes");
    refused(run + "memory.l2.size_bytes=4294967296", "memory.l2.size_bytes");
    for (const char* unit : {"alu", "sfu", "fp64", "ldst"})
        refused(run + "gpu.sm." + unit + ".units=100000000", std::string("gpu.sm.") + unit + ".units");
    refused(run + "gpu.sm.collector_units=100000000", "gpu.sm.collector_units");
    refused(run + "gpu.sm.regfile_banks=100000000", "gpu.sm.regfile_banks");
    refused(run + "uvm.l1_tlb_entries=100000000", "uvm.l1_tlb_entries");
    refused(run + "gpu.sm.max_ctas=2147483647", "gpu.sm.max_ctas");
    refused(run + "gpu.sm.schedulers=1000000", "gpu.sm.schedulers");
    refused(run + "uvm.capacity_bytes=9007199254740992", "uvm.capacity_bytes");  // 8 PiB of GPU memory
    refused("run small --set run.size=2000000000", "run.size");
    refused("run small --set run.size=4294967295", "run.size");
    // An index of an array of tables is bounded before the array is grown to it.
    refused("run small --set app[999999].size=1", "app[999999]");
    // Each key within its range, their product (the routers' buffers) far over any machine.
    refused("noc --set noc.width=256 --set noc.height=256 --set noc.vcs=12 --set noc.buffer_depth=1024",
            "noc.buffer_depth");
}

TEST_CASE("reliability: a run whose estimated memory is over run.max_memory_gb is refused saying why", "[cli][errors]") {
    // Each is a valid size; the data (24 bytes per element) or the caches are what is too big.
    // The data cases set the limit, so that they stay over it on a machine with much memory.
    refused("run small --workload vecadd:999999999 --set run.max_memory_gb=8", "run.max_memory_gb");
    refused("run small --set run.size=1073741824 --set run.max_memory_gb=8", "run.max_memory_gb");
    // Every application's data counts: two of 9.6 GB each are over 16 GB, either alone is not.
    refused("run small --app vecadd:400000000 --app vecadd:400000000 --set run.max_memory_gb=16",
            "run.max_memory_gb");
    // 256 GB of L1 lines: over the default limit (half of the machine's memory) anywhere.
    Timed caches = timed("run small --workload vecadd:256 --set gpu.num_sms=1024 --set gpu.l1.size_bytes=1073741824");
    INFO(caches.r.output);
    CHECK(caches.r.exit_code == 2);
    CHECK(caches.r.output.find("run.max_memory_gb") != std::string::npos);
    CHECK(caches.r.output.find("(the default: half of this machine's") != std::string::npos);
    Timed t = timed("run small --workload vecadd:4096 --set run.max_memory_gb=0.001");
    INFO(t.r.output);
    CHECK(t.r.exit_code == 2);
    CHECK(t.r.output.find("more than the limit of 1 MB") != std::string::npos);
    CHECK(t.r.output.find("(program 17 MB, SM state 1 MB)") != std::string::npos);
    CHECK(run_cli("run small --workload vecadd:4096 --set run.max_memory_gb=1 --quiet").exit_code == 0);
}

TEST_CASE("reliability: a fault latency beyond the watchdog window runs to the end, not a deadlock", "[cli]") {
    // 100 ms of simulated fault handling is 10^8 core cycles at 1 GHz, a hundred times the
    // watchdog's window here; the GPU only waits meanwhile, so the run completes.
    Timed t = timed("run small --workload vecadd:256 --set uvm.mode=managed --set uvm.fault_latency_ns=1e8 "
                    "--set gpu.watchdog_cycles=1000000");
    INFO(t.r.output);
    CHECK(t.r.exit_code == 0);
    CHECK(t.r.output.find("verification: PASSED") != std::string::npos);
    CHECK(t.seconds < 30.0);
}

TEST_CASE("reliability: a run thrashing GPU memory is not a deadlock while pages arrive, an endless one is",
          "[cli]") {
    // ATAX at half its footprint: 18 M cycles in which CTAs finish rarely (over 10^6 cycles
    // apart) while pages keep arriving and warps retire instructions. Before paging counted as
    // progress, a 10^6-cycle watchdog called it a deadlock.
    const std::string thrash = "run small --workload atax:512 --set uvm.mode=managed "
                               "--set uvm.eviction_granularity_bytes=262144 --set uvm.writeback_before_reuse=true "
                               "--set uvm.capacity_fraction=0.5 ";
    const CliResult ok = run_cli(thrash + "--set gpu.watchdog_cycles=1000000");
    INFO(ok.output);
    CHECK(ok.exit_code == 0);
    CHECK(ok.output.find("verification: PASSED") != std::string::npos);
    // Paging excuses at most 100 watchdog windows without a CTA finishing (an eviction livelock
    // would otherwise run for ever): with a 2x10^4-cycle watchdog that is 2x10^6 cycles.
    const CliResult livelock = run_cli(thrash + "--set gpu.watchdog_cycles=20000");
    INFO(livelock.output);
    CHECK(livelock.exit_code == 3);
    CHECK(livelock.output.find("no CTA finished in 2000000 cycles although pages kept arriving") != std::string::npos);
}

TEST_CASE("reliability: --watch, --timeline-sms and a workload with --trace are checked against the run", "[cli][errors]") {
    refused("run small --workload vecadd:256 --watch sm99.w99", "--watch sm99.w99");
    refused("run small --workload vecadd:256 --watch sm0.w64", "--watch sm0.w64");
    refused("run small --workload vecadd:256 --timeline-sms 999 --timeline " + temp_dir() + "/t.json",
            "--timeline-sms");
    const std::string trace =
        " --trace " + data_path("accelsim/vecadd-256/kernelslist.g");
    refused("run small --workload vecadd:256" + trace, "not both");
    refused("run small --app vecadd:256" + trace, "not both");
    refused("run small --set app[0].size=256" + trace, "[[app]]");
}

TEST_CASE("reliability: tracing outputs into a folder that cannot be made fail before the run", "[cli][errors]") {
    // vecadd:1000000 takes seconds to simulate; the refusal must not wait for it. Below a
    // regular file no folder can be created (not even by root).
    const std::string file = temp_dir() + "/file";
    write_file(file, "x");
    for (const char* option : {"--timeline", "--samples", "--vcd"})
        refused("run small --workload vecadd:1000000 " + std::string(option) + " " + file + "/sub/out", option);
    // A missing folder that can be made is made (as stacksim did before the check).
    const std::string made = temp_dir() + "/new/folder/t.json";
    CHECK(run_cli("run small --workload vecadd:256 --quiet --timeline " + made).exit_code == 0);
    CHECK(fs::exists(made));
}

TEST_CASE("reliability: a config name the system refuses is an input error, shortened", "[cli][errors]") {
    Timed t = timed("run " + std::string(5000, 'a'));
    INFO(t.r.output.substr(0, 300));
    CHECK(t.r.exit_code == 2);
    CHECK(t.r.output.find("5000 characters") != std::string::npos);
    CHECK(t.r.output.size() < 600);
}

TEST_CASE("reliability: messages escape control characters and invalid UTF-8 from the input", "[cli][errors]") {
    // A CR, an ESC sequence and a byte that is not UTF-8 in a --set value (printf makes them).
    CliResult r = run_cli("run small --set \"$(printf 'gpu.num_sms=\\r\\033[31mx\\377')\"");
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(r.output.find('\r') == std::string::npos);
    CHECK(r.output.find('\x1b') == std::string::npos);
    CHECK(r.output.find('\xff') == std::string::npos);
    CHECK(r.output.find("\\r\\x1B[31mx\\xFF") != std::string::npos);
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}

TEST_CASE("reliability: a non-empty results folder is kept unless --force, which replaces it whole", "[cli]") {
    const std::string dir = temp_dir() + "/results";
    const std::string args = "run small --workload vecadd:512 --quiet --out " + dir;
    REQUIRE(run_cli(args + " --seed 1").exit_code == 0);
    const std::string first = read_file(dir + "/stats.json");
    CliResult again = run_cli(args + " --seed 2");
    INFO(again.output);
    CHECK(again.exit_code == 2);
    CHECK(again.output.find("--force") != std::string::npos);
    CHECK(read_file(dir + "/stats.json") == first);
    REQUIRE(run_cli(args + " --seed 2 --force").exit_code == 0);
    CHECK(read_file(dir + "/summary.json").find("\"seed\": 2") != std::string::npos);
    // Exactly the five result files; no temporary file or staging folder is left anywhere near.
    std::vector<std::string> names;
    for (auto& f : fs::directory_iterator(dir)) names.push_back(f.path().filename().string());
    std::sort(names.begin(), names.end());
    CHECK(names == std::vector<std::string>{".stacksim-results", "config.toml", "stats.csv", "stats.json", "stats.txt",
                                            "summary.json"});
    CHECK(std::distance(fs::directory_iterator(fs::path(dir).parent_path()), fs::directory_iterator()) == 1);
}

TEST_CASE("reliability: Netrace records with a bad type or node exit 2 naming the file", "[cli][errors][netrace]") {
    // The project's small trace (tests/data) with its first record (after the 72-byte header and 0 notes /
    // one 24-byte region) changed: packet type 0, then source node 200 of 64.
    const std::string original = read_file(data_path("netrace/small.tra.bz2"));
    std::string raw(1 << 16, '\0');
    unsigned len = static_cast<unsigned>(raw.size());
    REQUIRE(BZ2_bzBuffToBuffDecompress(raw.data(), &len, const_cast<char*>(original.data()),
                                       static_cast<unsigned>(original.size()), 0, 0) == BZ_OK);
    raw.resize(len);
    uint32_t notes = 0, regions = 0;
    std::memcpy(&notes, &raw[56], 4);
    std::memcpy(&regions, &raw[60], 4);
    const size_t record = 72 + notes + 24 * regions;
    const std::string dir = temp_dir();
    for (auto [offset, value, expect] : {std::tuple<size_t, char, const char*>{16, 0, "invalid packet type 0"},
                                         {17, char(200), "node 200 is outside the trace's 64 nodes"}}) {
        std::string bad = raw;
        bad[record + offset] = value;
        std::string packed(bad.size() + 1024, '\0');
        unsigned plen = static_cast<unsigned>(packed.size());
        REQUIRE(BZ2_bzBuffToBuffCompress(packed.data(), &plen, bad.data(), static_cast<unsigned>(bad.size()), 9, 0, 0) ==
                BZ_OK);
        const std::string path = dir + "/bad" + std::to_string(offset) + ".tra.bz2";
        write_file(path, packed.substr(0, plen));
        Timed t = timed("noc --trace " + path);
        INFO(t.r.output);
        CHECK(t.r.exit_code == 2);
        CHECK(t.r.output.find(path + ": packet record 0 at byte offset " + std::to_string(record)) != std::string::npos);
        CHECK(t.r.output.find(expect) != std::string::npos);
    }
}

TEST_CASE("reliability: tracing outputs in the --out folder are published with the results", "[cli]") {
    // The folder does not exist before the run: it appears whole, the timeline inside it.
    const std::string dir = temp_dir() + "/results";
    CliResult r = run_cli("run small --workload vecadd:512 --quiet --out " + dir + " --timeline " + dir + "/t.json");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    CHECK(read_file(dir + "/t.json").find("traceEvents") != std::string::npos);
    CHECK(fs::exists(dir + "/summary.json"));
    refused("run small --workload vecadd:512 --out " + dir + "2 --timeline " + dir + "2/stats.json",
            "another output of the run");
    refused("run small --workload vecadd:512 --out " + dir + "3 --timeline " + dir + "3/t --vcd " + dir + "3/t",
            "another output of the run");
    // --samples and --vcd in the folder are published with it too.
    const std::string all = temp_dir() + "/all";
    REQUIRE(run_cli("run small --workload vecadd:512 --quiet --out " + all + " --samples " + all + "/s.csv --vcd " +
                    all + "/w.vcd")
                .exit_code == 0);
    CHECK(read_file(all + "/s.csv").rfind("cycle,", 0) == 0);
    CHECK(fs::exists(all + "/w.vcd"));
    CHECK(!fs::exists(all + "/w.vcd.part"));
}
