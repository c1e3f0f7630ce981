// SPDX-License-Identifier: Apache-2.0
// L1 data cache bench: a scripted requester, the L1 and the simple memory (one run per process).
#include <catch2/catch.hpp>

#include <map>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "memory/sector_cache.h"
#include "memory/simple_memory.h"
#include "sim/payload_pool.h"
#include "tests/unit/scripted_requester.h"

using namespace stacksim;

namespace {

struct Bench {
    sim::StatRegistry stats;
    sim::ClockDomain clock{"clk", 1000};
    memory::SimpleMemory mem;
    memory::SectorCache l1;
    test::ScriptedRequester req{"req", clock};
    Bench(const memory::SectorCacheConfig& cfg)
        : mem("mem", memory::SimpleMemoryConfig{1000.0, 100, 1000.0, 256}, clock, stats),
          l1("l1", cfg, clock, stats) {
        req.socket.bind(l1.upstream);
        l1.downstream.bind(mem.upstream);
    }
    void run(std::vector<test::ScriptedRequest> script) {
        req.start(std::move(script));
        sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    }
    double stat(const std::string& n) { return stats.value(n); }
};

constexpr auto R = sim::MemAccess::Read;
constexpr auto W = sim::MemAccess::Write;

/// A cache request for `sectors` (32 bytes each) of the line at `addr`.
test::ScriptedRequest l1(uint64_t cycle, uint64_t addr, uint32_t sectors, sim::MemAccess a, uint32_t warp) {
    return {cycle, addr, 32u * static_cast<uint32_t>(__builtin_popcount(sectors)), a, sectors, warp};
}

}  // namespace

TEST_CASE("l1: a miss waits for memory, a later read of the same sectors hits after hit_latency", "[l1]") {
    memory::SectorCacheConfig cfg;
    Bench b(cfg);
    b.run({l1(0, 0x1000, 0x1, R, 0), l1(500, 0x1000, 0x1, R, 0)});
    REQUIRE(b.req.response.size() == 2);
    CHECK(b.req.response[0] > 100);                 // through the memory's 100-cycle latency
    CHECK(b.req.response[0] < 100 + 40);
    // The tag stage runs the cycle after the request arrives, then hit_latency.
    CHECK(b.req.response[1] == 500 + 1 + cfg.hit_latency);
    CHECK(b.stat("l1.read_hits") == 1);
    CHECK(b.stat("mem.reads") == 1);
}

TEST_CASE("l1: a miss to a line already in flight merges into its MSHR", "[l1]") {
    memory::SectorCacheConfig cfg;
    Bench b(cfg);
    b.run({l1(0, 0x2000, 0x1, R, 0), l1(1, 0x2000, 0x1, R, 1), l1(2, 0x2040, 0x4, R, 2)});
    REQUIRE(b.req.response.size() == 3);
    CHECK(b.stat("l1.mshr_merges") == 2);
    CHECK(b.stat("mem.reads") == 2);  // the third wanted another sector: one more fetch
    CHECK(b.req.response[0] == b.req.response[1]);
}

TEST_CASE("l1: with every MSHR busy the cache withholds END_REQ and still answers everything", "[l1]") {
    memory::SectorCacheConfig cfg;
    cfg.mshrs = 2;
    cfg.queue_depth = 1;
    Bench b(cfg);
    std::vector<test::ScriptedRequest> script;
    for (uint32_t i = 0; i < 8; ++i) script.push_back(l1(0, 0x10000 + i * 0x1000ull, 0x1, R, i));
    b.run(script);
    CHECK(b.req.response.size() == 8);
    CHECK(b.req.times_blocked > 0);
    CHECK(b.stat("l1.reservation_fails") > 0);
    // Two at a time through a 100-cycle memory: the last answer comes after four rounds.
    CHECK(b.req.response[7] > 4 * 100);
}

TEST_CASE("l1: write-through forwards writes and answers when memory acknowledges", "[l1]") {
    memory::SectorCacheConfig cfg;
    Bench b(cfg);
    b.run({l1(0, 0x3000, 0x3, W, 0)});
    CHECK(b.stat("mem.writes") == 1);
    CHECK(b.req.response[0] > 100);
}

TEST_CASE("l1: write-back absorbs writes and writes back dirty victims", "[l1]") {
    memory::SectorCacheConfig cfg;
    cfg.write_policy = memory::WritePolicy::WriteBack;
    cfg.size_bytes = 512;  // 1 set of 4 ways
    Bench b(cfg);
    std::vector<test::ScriptedRequest> script;
    for (uint32_t i = 0; i < 5; ++i) script.push_back(l1(i * 10ull, 0x4000 + i * 128ull, 0xF, W, 0));
    b.run(script);
    CHECK(b.req.response[0] == 1 + cfg.hit_latency);
    CHECK(b.stat("l1.writebacks") == 1);  // the fifth line evicted the first, dirty
    CHECK(b.stat("mem.writes") == 1);
}

TEST_CASE("l1: a warp that misses on a line it lost is flagged for CCWS", "[l1][ccws]") {
    memory::SectorCacheConfig cfg;
    cfg.size_bytes = 512;  // 1 set of 4 ways
    Bench b(cfg);
    std::vector<test::ScriptedRequest> script;
    for (uint32_t i = 0; i < 5; ++i) script.push_back(l1(i * 300ull, 0x8000 + i * 128ull, 0x1, R, 3));
    script.push_back(l1(2000, 0x8000, 0x1, R, 3));  // evicted by the fifth line: lost locality
    script.push_back(l1(2400, 0x8000 + 4 * 128, 0x1, R, 4));  // another warp, still resident: a hit
    b.run(script);
    REQUIRE(b.req.response.size() == 7);
    CHECK(b.req.lost_locality[5]);
    CHECK_FALSE(b.req.lost_locality[4]);
    CHECK(b.stat("l1.lost_locality") == 1);
}
