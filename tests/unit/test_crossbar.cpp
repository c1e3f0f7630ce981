// SPDX-License-Identifier: Apache-2.0
// Crossbar bench: routing by address, latency and serialisation, back-pressure (one run per process).
#include <catch2/catch.hpp>

#include <map>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "memory/simple_memory.h"
#include "noc/crossbar.h"
#include "sim/payload_pool.h"
#include "tests/unit/scripted_requester.h"

using namespace stacksim;

namespace {

struct Bench {
    sim::StatRegistry stats;
    sim::ClockDomain clock{"clk", 1000};
    noc::CrossbarConfig cfg;
    noc::Crossbar xbar;
    memory::SimpleMemory m0, m1;
    test::ScriptedRequester src{"src", clock};
    explicit Bench(const noc::CrossbarConfig& c)
        : cfg(c), xbar("xbar", c, common::AddressMap{2, 256, false}, clock, stats),
          m0("m0", memory::SimpleMemoryConfig{1000.0, 50, 1000.0, 256}, clock, stats),
          m1("m1", memory::SimpleMemoryConfig{1000.0, 50, 1000.0, 256}, clock, stats) {
        src.socket.bind(xbar.upstream);
        xbar.downstream.bind(m0.upstream);
        xbar.downstream.bind(m1.upstream);
    }
    void run(std::vector<test::ScriptedRequest> s) {
        src.start(std::move(s));
        sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    }
};

constexpr auto R = sim::MemAccess::Read;
constexpr auto W = sim::MemAccess::Write;

}  // namespace

TEST_CASE("xbar: requests go to the partition of their address and come back", "[xbar]") {
    Bench b(noc::CrossbarConfig{});
    b.run({{0, 0x000, 128, R}, {0, 0x100, 128, R}, {0, 0x200, 32, W}, {0, 0x3c0, 32, W}});
    CHECK(b.src.response.size() == 4);
    CHECK(b.stats.value("m0.reads") == 1);
    CHECK(b.stats.value("m1.reads") == 1);
    CHECK(b.stats.value("m0.writes") == 1);  // 0x200 / 256 = 2 -> partition 0
    CHECK(b.stats.value("m1.writes") == 1);  // 0x3c0 / 256 = 3 -> partition 1
}

TEST_CASE("xbar: a read crosses twice the latency plus its packets' serialisation", "[xbar]") {
    noc::CrossbarConfig cfg;  // latency 8, width 32, header 8
    Bench b(cfg);
    b.run({{0, 0x0, 128, R}});
    // Request: 8 header bytes = 1 cycle; response: 8 + 128 bytes = 5 cycles at 32 B/cycle;
    // memory: 50 cycles after its transfer (1000 GB/s at 1 GHz moves 128 B within a cycle).
    const uint64_t memory = 50 + 1;
    const uint64_t expected = cfg.latency + 1 + memory + cfg.latency + 5;
    INFO("response at " << b.src.response[0] << ", expected about " << expected);
    CHECK(b.src.response[0] >= expected - 2);
    CHECK(b.src.response[0] <= expected + 3);
}

TEST_CASE("xbar: writes to one partition serialise on its output port", "[xbar]") {
    noc::CrossbarConfig cfg;
    cfg.width_bytes = 8;  // a 128-byte write holds the port for 17 cycles
    Bench b(cfg);
    std::vector<test::ScriptedRequest> s;
    for (uint32_t i = 0; i < 4; ++i) s.push_back({0, 0x0 + i * 0x200ull, 128, W});  // all partition 0
    b.run(s);
    REQUIRE(b.src.response.size() == 4);
    CHECK(b.src.response[3] - b.src.response[0] >= 3 * 17);
    CHECK(b.stats.value("xbar.output_blocked_cycles") > 0);
}

TEST_CASE("xbar: a full input queue withholds END_REQ and still delivers everything", "[xbar]") {
    noc::CrossbarConfig cfg;
    cfg.queue_depth = 2;
    cfg.width_bytes = 8;
    Bench b(cfg);
    std::vector<test::ScriptedRequest> s;
    for (uint32_t i = 0; i < 10; ++i) s.push_back({0, i * 0x200ull, 128, W});
    b.run(s);
    CHECK(b.src.response.size() == 10);
}
