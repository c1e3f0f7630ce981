// SPDX-License-Identifier: Apache-2.0
// Capacity compression of managed pages in whole runs: capacity in compressed bytes, the
// metadata cache's misses, the forced ratio, and its config errors.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/system/cli_runner.h"

using namespace stacksim::test;

namespace {

struct Outcome {
    nlohmann::json summary, stats;
    double stat(const std::string& name) const { return stats.at(name).at("value").get<double>(); }
    double cycles() const { return stat("gpu.cycles"); }
};

// The hierarchy with GDDR5 channels (the metadata caches sit in their controllers); 4 KB pages
// evicted one at a time; 1 us faults, so that DRAM latency shows beside fault handling.
const std::string kBase =
    " --set memory.model=hierarchy --set memory.dram.preset=gddr5 --set uvm.mode=managed --set uvm.page_bytes=4096"
    " --set uvm.eviction_granularity_bytes=4096 --set uvm.fault_latency_ns=1000";

Outcome run(const std::string& workload, const std::string& sets) {
    const std::string dir = temp_dir();
    const CliResult r = run_cli("run small --workload " + workload + " --quiet --out " + dir + kBase + sets);
    INFO(workload << sets << ":\n" << r.output);
    REQUIRE(r.exit_code == 0);
    Outcome o{nlohmann::json::parse(read_file(dir + "/summary.json")), nlohmann::json::parse(read_file(dir + "/stats.json"))};
    CHECK(o.summary["verification"]["passed"] == true);
    return o;
}

const std::string kOn = " --set uvm.compression.enabled=true";

}  // namespace

TEST_CASE("uvm compression: compressible pages fit more of the footprint, so fewer evictions", "[uvm][compression]") {
    // sad's frames are 16-bit pixels 0..255 (base2-delta1 lines, 4 KB pages to 2.5 KB); its
    // SADs, already computed when their pages arrive, hardly compress: 1.36 overall.
    const std::string half = " --set uvm.capacity_fraction=0.5";
    const Outcome plain = run("sad:64", half);
    const Outcome packed = run("sad:64", half + kOn);
    CHECK(packed.stat("gpu.gmmu.compression.ratio") > 1.2);
    CHECK(packed.stat("gpu.gmmu.compression.compressed_pages") > 0);
    CHECK(plain.stat("gpu.gmmu.evictions") > 0);
    CHECK(packed.stat("gpu.gmmu.evictions") < plain.stat("gpu.gmmu.evictions"));
    CHECK(packed.summary["warp_instructions"] == plain.summary["warp_instructions"]);
}

TEST_CASE("uvm compression: metadata cache misses add latency (1 entry is slower than 512)", "[uvm][compression]") {
    const std::string miss = " --set uvm.compression.metadata_miss_latency=500";
    const Outcome big = run("sad:64", kOn + miss);
    const Outcome one = run("sad:64", kOn + miss + " --set uvm.compression.metadata_cache_entries=1");
    CHECK(one.stat("gpu.gmmu.compression.metadata_misses") > big.stat("gpu.gmmu.compression.metadata_misses"));
    CHECK(one.cycles() > big.cycles());
    // Without the miss latency the cache size makes no difference.
    const std::string free_misses = " --set uvm.compression.metadata_miss_latency=0";
    CHECK(run("sad:64", kOn + free_misses).cycles() ==
          run("sad:64", kOn + free_misses + " --set uvm.compression.metadata_cache_entries=1").cycles());
}

TEST_CASE("uvm compression: not oversubscribed it only costs latency", "[uvm][compression]") {
    // Outputs migrate too (populate_unwritten off), so every page arrives and is decompressed on
    // use. With sad's 45 KB of output pages populated instead, the two runs differ by scheduling
    // alone (compressed 57371 cycles, plain 58114).
    const std::string all = " --set uvm.populate_unwritten=false";
    const Outcome plain = run("sad:64", all);
    const Outcome packed = run("sad:64", all + kOn);
    CHECK(packed.stat("gpu.gmmu.evictions") == 0);
    CHECK(packed.stat("gpu.gmmu.compression.decompressions") > 0);
    CHECK(packed.cycles() > plain.cycles());
}

TEST_CASE("uvm compression: a forced ratio replaces the measured one", "[uvm][compression]") {
    const std::string half = " --set uvm.capacity_fraction=0.5";
    // lps's random floats hardly compress; forced to 4:1 the footprint fits in half the memory.
    const Outcome measured = run("lps:24", half + kOn);
    const Outcome forced = run("lps:24", half + kOn + " --set uvm.compression.forced_ratio=4");
    CHECK(forced.stat("gpu.gmmu.compression.ratio") == Approx(4.0));
    CHECK(measured.stat("gpu.gmmu.compression.ratio") < 1.5);
    CHECK(forced.stat("gpu.gmmu.evictions") == 0);
    CHECK(measured.stat("gpu.gmmu.evictions") > 0);
}

TEST_CASE("uvm compression: a bad forced ratio is a one-line config error naming the key", "[uvm][compression]") {
    const CliResult r = run_cli("run small --workload sad:16 --quiet --set uvm.compression.forced_ratio=0.5");
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(r.output.find("uvm.compression.forced_ratio") != std::string::npos);
}

namespace {

/// Each app verifies with compression on at 75% and 50% of its footprint, and the data it
/// leaves is the same as without compression (same instructions).
void verify_compressed(const std::vector<std::string>& apps) {
    for (const std::string& app : apps) {
        const double instructions = run(app, "").summary["warp_instructions"].get<double>();
        for (const char* fraction : {"0.75", "0.5"}) {
            const Outcome o = run(app, kOn + " --set uvm.capacity_fraction=" + fraction);
            INFO(app << " at " << fraction);
            CHECK(o.summary["warp_instructions"].get<double>() == instructions);
            CHECK(o.stat("gpu.gmmu.compression.pages") > 0);
        }
    }
}

}  // namespace

TEST_CASE("uvm compression: ETC's regular apps without sharing verify at 75% and 50%", "[uvm][compression]") {
    verify_compressed({"2dconv:40", "3dconv:16", "sad:32", "corr:32", "covar:32", "fdtd2d:40", "lps:16"});
}
TEST_CASE("uvm compression: ETC's regular apps with sharing verify at 75% and 50%", "[uvm][compression]") {
    verify_compressed({"lud:48", "srad:48", "cons:40", "scan:20000"});
}
TEST_CASE("uvm compression: ETC's irregular apps verify at 75% and 50%", "[uvm][compression]") {
    verify_compressed({"atax:64", "bicg:64", "gesummv:64", "mvt:64"});
}
