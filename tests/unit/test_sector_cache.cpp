// SPDX-License-Identifier: Apache-2.0
// L1 data cache bench: a scripted requester, the L1 and the simple memory (one run per process).
#include <catch2/catch.hpp>

#include <map>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "memory/sector_cache.h"
#include "memory/simple_memory.h"
#include "sim/payload_pool.h"

using namespace stacksim;

namespace {

/// Sends scripted requests (cycle, address, sectors, access, warp) and records response cycles.
struct Requester : sc_core::sc_module, sim::Clocked {
    struct Req {
        uint64_t cycle;
        uint64_t addr;
        uint32_t sectors;
        sim::MemAccess access;
        uint32_t warp;
    };
    tlm_utils::simple_initiator_socket<Requester> socket{"socket"};
    sim::ClockDomain& clock;
    sim::PayloadPool pool;
    std::vector<Req> script;
    size_t next = 0;
    tlm::tlm_generic_payload* blocked = nullptr;
    int times_blocked = 0;
    std::map<uint32_t, uint64_t> response_cycle;  ///< request index -> cycle
    std::map<uint32_t, bool> lost_locality;

    Requester(sc_core::sc_module_name n, sim::ClockDomain& c) : sc_module(n), clock(c) {
        socket.register_nb_transport_bw(this, &Requester::bw);
    }
    tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
        if (&p == blocked) blocked = nullptr;
        if (ph == tlm::BEGIN_RESP) {
            auto& e = sim::PayloadPool::ext(p);
            response_cycle[e.tag] = clock.cycle();
            lost_locality[e.tag] = e.lost_locality;
            p.release();
        }
        clock.activate(*this);
        return tlm::TLM_COMPLETED;
    }
    bool tick(uint64_t cycle) override {
        while (next < script.size() && script[next].cycle <= cycle && !blocked) {
            const Req& r = script[next];
            auto& p = pool.acquire();
            p.set_address(r.addr);
            p.set_data_length(32u * static_cast<unsigned>(__builtin_popcount(r.sectors)));
            auto& e = sim::PayloadPool::ext(p);
            e.tag = static_cast<uint32_t>(next);
            e.warp = r.warp;
            e.sector_mask = r.sectors;
            e.access = r.access;
            ++next;
            tlm::tlm_phase ph = tlm::BEGIN_REQ;
            sc_core::sc_time d = sc_core::SC_ZERO_TIME;
            if (socket->nb_transport_fw(p, ph, d) == tlm::TLM_ACCEPTED) {
                blocked = &p;
                ++times_blocked;
            }
        }
        if (next >= script.size()) return false;
        if (!blocked) clock.wake_at(*this, std::max(script[next].cycle, cycle + 1));
        return false;
    }
};

struct Bench {
    sim::StatRegistry stats;
    sim::ClockDomain clock{"clk", 1000};
    memory::SimpleMemory mem;
    memory::SectorCache l1;
    Requester req{"req", clock};
    Bench(const memory::SectorCacheConfig& cfg)
        : mem("mem", memory::SimpleMemoryConfig{1000.0, 100, 1000.0, 256}, clock, stats),
          l1("l1", cfg, clock, stats) {
        req.socket.bind(l1.upstream);
        l1.downstream.bind(mem.upstream);
    }
    void run(std::vector<Requester::Req> script) {
        req.script = std::move(script);
        clock.activate(req);
        sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    }
    double stat(const std::string& n) { return stats.value(n); }
};

constexpr auto R = sim::MemAccess::Read;
constexpr auto W = sim::MemAccess::Write;

}  // namespace

TEST_CASE("l1: a miss waits for memory, a later read of the same sectors hits after hit_latency", "[l1]") {
    memory::SectorCacheConfig cfg;
    Bench b(cfg);
    b.run({{0, 0x1000, 0x1, R, 0}, {500, 0x1000, 0x1, R, 0}});
    REQUIRE(b.req.response_cycle.size() == 2);
    CHECK(b.req.response_cycle[0] > 100);                 // through the memory's 100-cycle latency
    CHECK(b.req.response_cycle[0] < 100 + 40);
    // The tag stage runs the cycle after the request arrives, then hit_latency.
    CHECK(b.req.response_cycle[1] == 500 + 1 + cfg.hit_latency);
    CHECK(b.stat("l1.read_hits") == 1);
    CHECK(b.stat("mem.reads") == 1);
}

TEST_CASE("l1: a miss to a line already in flight merges into its MSHR", "[l1]") {
    memory::SectorCacheConfig cfg;
    Bench b(cfg);
    b.run({{0, 0x2000, 0x1, R, 0}, {1, 0x2000, 0x1, R, 1}, {2, 0x2040, 0x4, R, 2}});
    REQUIRE(b.req.response_cycle.size() == 3);
    CHECK(b.stat("l1.mshr_merges") == 2);
    CHECK(b.stat("mem.reads") == 2);  // the third wanted another sector: one more fetch
    CHECK(b.req.response_cycle[0] == b.req.response_cycle[1]);
}

TEST_CASE("l1: with every MSHR busy the cache withholds END_REQ and still answers everything", "[l1]") {
    memory::SectorCacheConfig cfg;
    cfg.mshrs = 2;
    cfg.queue_depth = 1;
    Bench b(cfg);
    std::vector<Requester::Req> script;
    for (uint32_t i = 0; i < 8; ++i) script.push_back({0, 0x10000 + i * 0x1000ull, 0x1, R, i});
    b.run(script);
    CHECK(b.req.response_cycle.size() == 8);
    CHECK(b.req.times_blocked > 0);
    CHECK(b.stat("l1.reservation_fails") > 0);
    // Two at a time through a 100-cycle memory: the last answer comes after four rounds.
    CHECK(b.req.response_cycle[7] > 4 * 100);
}

TEST_CASE("l1: write-through forwards writes and answers when memory acknowledges", "[l1]") {
    memory::SectorCacheConfig cfg;
    Bench b(cfg);
    b.run({{0, 0x3000, 0x3, W, 0}});
    CHECK(b.stat("mem.writes") == 1);
    CHECK(b.req.response_cycle[0] > 100);
}

TEST_CASE("l1: write-back absorbs writes and writes back dirty victims", "[l1]") {
    memory::SectorCacheConfig cfg;
    cfg.write_policy = "write_back";
    cfg.size_bytes = 512;  // 1 set of 4 ways
    Bench b(cfg);
    std::vector<Requester::Req> script;
    for (uint32_t i = 0; i < 5; ++i) script.push_back({i * 10ull, 0x4000 + i * 128ull, 0xF, W, 0});
    b.run(script);
    CHECK(b.req.response_cycle[0] == 1 + cfg.hit_latency);
    CHECK(b.stat("l1.writebacks") == 1);  // the fifth line evicted the first, dirty
    CHECK(b.stat("mem.writes") == 1);
}

TEST_CASE("l1: a warp that misses on a line it lost is flagged for CCWS", "[l1][ccws]") {
    memory::SectorCacheConfig cfg;
    cfg.size_bytes = 512;  // 1 set of 4 ways
    Bench b(cfg);
    std::vector<Requester::Req> script;
    for (uint32_t i = 0; i < 5; ++i) script.push_back({i * 300ull, 0x8000 + i * 128ull, 0x1, R, 3});
    script.push_back({2000, 0x8000, 0x1, R, 3});  // evicted by the fifth line: lost locality
    script.push_back({2400, 0x8000 + 4 * 128, 0x1, R, 4});  // another warp, still resident: a hit
    b.run(script);
    REQUIRE(b.req.response_cycle.size() == 7);
    CHECK(b.req.lost_locality[5]);
    CHECK_FALSE(b.req.lost_locality[4]);
    CHECK(b.stat("l1.lost_locality") == 1);
}
