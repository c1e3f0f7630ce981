// SPDX-License-Identifier: Apache-2.0
// Page walks that read their page-table entries through the memory system: on a small bench
// (scripted requester, translation unit, L1, L2 slice, memory) walk latency with entries in
// the L2 vs from memory vs found in the walk cache, where the reads are counted; end to end,
// walk reads vs modelled walks on a TLB-miss-heavy kernel, and determinism.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "memory/gmmu.h"
#include "memory/sector_cache.h"
#include "memory/simple_memory.h"
#include "memory/translation_unit.h"
#include "tests/system/cli_runner.h"
#include "tests/system/sim_harness.h"
#include "tests/unit/scripted_requester.h"

using namespace stacksim;

namespace {

constexpr uint64_t kBase = 0x1000'0000;
constexpr uint64_t kPage = 4096;

/// Requester -> translation unit -> L1 -> L2 slice -> memory (latency 300), one core clock.
struct WalkBench {
    sim::StatRegistry stats;
    sim::ClockDomain clock{"clock", 1000};
    memory::Gmmu gmmu;
    test::ScriptedRequester req{"req", clock};
    memory::TranslationUnit tlb;
    memory::SectorCache l1, l2;
    memory::SimpleMemory mem;

    WalkBench(const memory::UvmConfig& u)
        : gmmu("gmmu", u, memory::GmmuPlatform{1, 256, 1}, nullptr, stats), tlb("tlb", u, gmmu, clock, stats),
          l1("l1", l1_config(), clock, stats), l2("l2", l2_config(), clock, stats),
          mem("mem", memory::SimpleMemoryConfig{}, clock, stats) {
        req.socket.bind(tlb.upstream);
        tlb.downstream.bind(l1.upstream);
        l1.downstream.bind(l2.upstream);
        l2.downstream.bind(mem.upstream);
        gmmu.allocate(kBase, 1024 * kPage, false);
    }
    static memory::SectorCacheConfig l1_config() { return memory::SectorCacheConfig{}; }
    static memory::SectorCacheConfig l2_config() {
        memory::SectorCacheConfig c;
        c.size_bytes = 262144;
        c.ways = 16;
        c.hit_latency = 20;
        c.atomics = memory::AtomicPolicy::Execute;
        c.role = memory::CacheRole::L2;
        c.write_policy = memory::WritePolicy::WriteBack;
        return c;
    }
    double stat(const std::string& n) { return stats.value(n); }
};

memory::UvmConfig walk_config(uint32_t pwc_entries) {
    memory::UvmConfig u;
    u.mode = memory::UvmMode::Device;
    u.page_bytes = kPage;
    // One-entry TLBs: any other page evicts a translation, so a page can be walked again.
    u.l1_tlb_entries = u.l1_tlb_ways = 1;
    u.l2_tlb_entries = u.l2_tlb_ways = 1;
    u.pwc_entries = u.pwc_ways = pwc_entries;
    return u;
}

test::ScriptedRequest read_at(uint64_t cycle, uint64_t page) {
    return {cycle, kBase + page * kPage, 32, sim::MemAccess::Read, 0x1};
}

/// Walks page 5 (cold), page 700, then page 5 again; returns the latency of the last walk
/// and, after the first, the L1 and L2 walk-read counts.
std::vector<double> walk_again(uint32_t pwc_entries, bool first_only = false) {
    WalkBench b(walk_config(pwc_entries));
    std::vector<test::ScriptedRequest> s = {read_at(0, 5)};
    if (!first_only) s.push_back(read_at(5000, 700)), s.push_back(read_at(10000, 5));
    b.req.start(s);
    sc_core::sc_start(sc_core::sc_time(8, sc_core::SC_US));
    const double before = static_cast<double>(b.gmmu.translation().walk_cycles());
    const double reads_before = static_cast<double>(b.gmmu.translation().pte_reads());
    sc_core::sc_start();
    const auto& t = b.gmmu.translation();
    REQUIRE(b.req.response.size() == s.size());
    REQUIRE(t.walks() == s.size());
    const double last = first_only ? static_cast<double>(t.walk_cycles()) : static_cast<double>(t.walk_cycles()) - before;
    // An L1 never serves a walk read: it has no walk_reads counter (-1 here).
    return {last, b.stats.contains("l1.walk_reads") ? b.stat("l1.walk_reads") : -1.0, b.stat("l1.walk_forwards"), b.stat("l1.reads"), b.stat("l2.walk_reads"),
            b.stat("l2.walk_read_hits"), static_cast<double>(t.pte_reads()), b.stat("mem.reads"),
            static_cast<double>(t.pte_reads()) - (first_only ? 0 : reads_before)};
}

struct Run {
    nlohmann::json summary, stats;
    std::string stats_text;
    double stat(const std::string& name) const { return stats.at(name).at("value").get<double>(); }
};

Run run(const std::string& workload, const std::string& sets) {
    const std::string dir = test::temp_dir();
    const test::CliResult r = test::run_cli("run small --workload " + workload + " --quiet --out " + dir + " " + sets);
    INFO(workload << " " << sets << ":\n" << r.output);
    REQUIRE(r.exit_code == 0);
    Run o{nlohmann::json::parse(test::read_file(dir + "/summary.json")),
          nlohmann::json::parse(test::read_file(dir + "/stats.json")), test::read_file(dir + "/stats.json")};
    CHECK(o.summary["verification"]["passed"] == true);
    return o;
}

const std::string kTlbHeavy = "--set memory.model=hierarchy --set uvm.mode=ideal --set uvm.page_bytes=4096";

}  // namespace

TEST_CASE("uvm walks: entries from the L2 beat a cold walk from memory and walk-cache hits beat both", "[uvm][walks]") {
    const std::vector<double> cold = test::in_child([] { return walk_again(1024, true); });
    const std::vector<double> l2 = test::in_child([] { return walk_again(1); });     // no walk cache to speak of
    const std::vector<double> pwc = test::in_child([] { return walk_again(1024); }); // upper levels cached
    REQUIRE(cold.size() == 9);
    REQUIRE(l2.size() == 9);
    REQUIRE(pwc.size() == 9);
    INFO("walk latency: cold " << cold[0] << ", entries in L2 " << l2[0] << ", walk-cache hits " << pwc[0]);
    INFO("reads of the measured walk: cold " << cold[8] << ", L2 " << l2[8] << ", walk cache " << pwc[8]);
    // Cold: four levels, each a memory access (300 cycles) behind two caches' misses.
    CHECK(cold[0] > 4 * 300);
    CHECK(cold[8] == 4);
    CHECK(cold[7] == 4 + 1);    // every entry came from memory (and the data line)
    CHECK(l2[0] < cold[0] / 2); // the same four reads, now hits in the L2
    CHECK(l2[5] >= 4);          // ... and counted as L2 walk-read hits
    CHECK(pwc[0] < l2[0]);      // three levels from the walk cache, the leaf from the L2
    CHECK(l2[8] == 4);
    CHECK(pwc[8] == 1);
}

TEST_CASE("uvm walks: page-table reads pass the L1 and are counted by the L2", "[uvm][walks]") {
    const std::vector<double> v = test::in_child([] { return walk_again(1024, true); });
    REQUIRE(v.size() == 9);
    CHECK(v[1] == -1);  // L1: no walk reads served (no counter for them) ...
    CHECK(v[2] == 4);  // ... four forwarded
    CHECK(v[3] == 1);  // L1 reads: the data read only
    CHECK(v[4] == 4);  // L2: four walk reads
    CHECK(v[6] == 4);
}

TEST_CASE("uvm walks: a TLB-miss-heavy kernel verifies with walks through memory and times differently",
          "[uvm][walks]") {
    const Run mem = run("random_traffic:64", kTlbHeavy + " --set uvm.walk_reads=memory");
    const Run modelled = run("random_traffic:64", kTlbHeavy + " --set uvm.walk_reads=modelled");
    CHECK(mem.stat("gpu.gmmu.walks") > 0);
    CHECK(mem.stat("gpu.gmmu.pte_reads") >= mem.stat("gpu.gmmu.walks"));
    CHECK(modelled.stat("gpu.gmmu.pte_reads") == 0);
    double l2_walk_reads = 0, l1_walk_reads = 0, l1_forwards = 0;
    for (auto& [name, v] : mem.stats.items()) {
        if (name.find(".walk_reads") == std::string::npos && name.find(".walk_forwards") == std::string::npos) continue;
        const double x = v.at("value").get<double>();
        if (name.rfind("gpu.mem.l2_", 0) == 0 && name.find(".walk_reads") != std::string::npos) l2_walk_reads += x;
        else if (name.find("_l1.walk_reads") != std::string::npos) l1_walk_reads += x;
        else if (name.find("_l1.walk_forwards") != std::string::npos) l1_forwards += x;
    }
    CHECK(l2_walk_reads == mem.stat("gpu.gmmu.pte_reads"));
    CHECK(l1_forwards == mem.stat("gpu.gmmu.pte_reads"));
    CHECK(l1_walk_reads == 0);
    CHECK(mem.summary["cycles"].get<double>() != modelled.summary["cycles"].get<double>());
    CHECK(mem.stat("gpu.gmmu.walk_latency") != modelled.stat("gpu.gmmu.walk_latency"));
}

TEST_CASE("uvm walks: identical runs with walks through memory give identical stats", "[uvm][walks][determinism]") {
    const std::string sets = kTlbHeavy + " --set uvm.walkers=4";
    const Run a = run("random_traffic:64", sets);
    const Run b = run("random_traffic:64", sets);
    CHECK(a.stat("gpu.gmmu.pte_reads") > 0);
    CHECK(a.stat("gpu.gmmu.walker_wait") > 0);
    CHECK(a.stats_text == b.stats_text);
}
