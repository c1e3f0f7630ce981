// SPDX-License-Identifier: Apache-2.0
// Sector cache against Accel-Sim (issue 28): a pipelined input latency, whole-line fills of an unsectored cache.
#include <catch2/catch.hpp>

#include <systemc>

#include "memory/sector_cache.h"
#include "memory/simple_memory.h"
#include "tests/unit/scripted_requester.h"

using namespace stacksim;

namespace {

struct Bench {
    sim::StatRegistry stats;
    sim::ClockDomain clock{"clk", 1000};
    memory::SimpleMemory mem;
    memory::SectorCache l2;
    test::ScriptedRequester req{"req", clock};
    Bench(const memory::SectorCacheConfig& cfg)
        : mem("mem", memory::SimpleMemoryConfig{1000.0, 100, 1000.0, 256}, clock, stats),
          l2("l2", cfg, clock, stats) {
        req.socket.bind(l2.upstream);
        l2.downstream.bind(mem.upstream);
    }
    void run(std::vector<test::ScriptedRequest> script) {
        req.start(std::move(script));
        sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    }
    double stat(const std::string& n) { return stats.value(n); }
};

constexpr auto R = sim::MemAccess::Read;

test::ScriptedRequest read(uint64_t cycle, uint64_t addr, uint32_t sectors) {
    return {cycle, addr, 32u * static_cast<uint32_t>(__builtin_popcount(sectors)), R, sectors, 0};
}

/// One cold miss at cycle 0, then `n` hits on the same line, one a cycle from cycle 5000; returns
/// the cycles from the first hit's response to the last's.
uint64_t hit_stream_span(uint32_t input_latency, uint32_t n, uint64_t* first_response) {
    memory::SectorCacheConfig cfg;
    cfg.input_latency = input_latency;
    cfg.hit_latency = 1;
    cfg.queue_depth = 8;
    Bench b(cfg);
    std::vector<test::ScriptedRequest> script{read(0, 0x1000, 0x1)};
    for (uint32_t i = 0; i < n; ++i) script.push_back(read(5000 + i, 0x1000, 0x1));
    b.run(script);
    REQUIRE(b.req.response.size() == n + 1);
    *first_response = b.req.response.at(1);
    return b.req.response.at(n) - b.req.response.at(1);
}

}  // namespace

TEST_CASE("l2: the input latency is a pipelined delay: one request a cycle whatever the latency", "[l2]") {
    // Accel-Sim's ROP queue holds any number of requests; a queue of 8 slots held for the whole
    // latency would let through 8 requests per 400 cycles (256 hits: ~12,800 cycles).
    uint64_t first = 0;
    const uint64_t span = hit_stream_span(400, 256, &first);
    CHECK(span == 255);          // one response a cycle, as without the latency
    CHECK(first >= 5000 + 400);  // each request still waits out the latency
    CHECK(first <= 5000 + 400 + 3);
}

TEST_CASE("l2: with an input latency queue_depth still bounds the requests waiting at the tag stage", "[l2]") {
    // One MSHR: the first 8 misses all enter the delay (it bounds nothing) and then wait for
    // the tag stage; the next 8, arriving while queue_depth or more wait there, stay in the
    // input queue, which withholds END_REQ when full. Everything is answered.
    memory::SectorCacheConfig cfg;
    cfg.input_latency = 50;
    cfg.mshrs = 1;
    cfg.queue_depth = 2;
    Bench b(cfg);
    std::vector<test::ScriptedRequest> script;
    for (uint32_t i = 0; i < 8; ++i) script.push_back(read(i, 0x10000 + i * 0x1000ull, 0x1));
    for (uint32_t i = 8; i < 16; ++i) script.push_back(read(112 + i, 0x10000 + i * 0x1000ull, 0x1));
    b.run(script);
    CHECK(b.req.response.size() == 16);
    CHECK(b.req.times_blocked > 0);
}

TEST_CASE("l2: an unsectored cache fetches its whole line once, line_bytes from memory", "[l2]") {
    memory::SectorCacheConfig cfg;
    cfg.sector_bytes = 128;  // Accel-Sim's N (gtx1080's L2)
    cfg.line_bytes = 128;
    Bench b(cfg);
    // One 32-byte sector of line A, then another sector of A (a hit: the line came whole), then
    // all four sectors of line B: two fills of 128 bytes (the mask's 32-byte sectors times the
    // cache's 128-byte sector were 128 + 512 bytes before).
    b.run({read(0, 0x1000, 0x1), read(1000, 0x1000, 0x4), read(2000, 0x2000, 0xF)});
    REQUIRE(b.req.response.size() == 3);
    CHECK(b.stat("l2.read_hits") == 1);
    CHECK(b.stat("mem.reads") == 2);
    CHECK(b.stat("mem.bytes") == 2 * 128);
}

TEST_CASE("l1: a sectored cache still fetches only the missing 32-byte sectors", "[l1]") {
    memory::SectorCacheConfig cfg;  // 32-byte sectors
    Bench b(cfg);
    b.run({read(0, 0x1000, 0x1), read(1000, 0x1000, 0x4), read(2000, 0x2000, 0xF)});
    REQUIRE(b.req.response.size() == 3);
    CHECK(b.stat("l2.read_hits") == 0);
    CHECK(b.stat("mem.reads") == 3);
    CHECK(b.stat("mem.bytes") == 32 + 32 + 128);
}
