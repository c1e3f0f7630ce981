// SPDX-License-Identifier: Apache-2.0
// The router-network interconnect between SMs and memory partitions: routing by address,
// zero-load latency, back-pressure from a refusing partition (one run per process).
#include <catch2/catch.hpp>

#include <memory>
#include <systemc>

#include "memory/simple_memory.h"
#include "noc/network_interconnect.h"
#include "sim/error.h"
#include "sim/payload_pool.h"
#include "tests/unit/scripted_requester.h"

using namespace stacksim;

namespace {

constexpr auto R = sim::MemAccess::Read;
constexpr auto W = sim::MemAccess::Write;

/// `sms` scripted requesters -> the network -> two simple memories (partitions 0 and 1, 256-byte
/// interleave), all on one 1 GHz clock.
struct Bench {
    sim::StatRegistry stats;
    sim::ClockDomain clock{"clk", 1000};
    noc::NocInterconnectConfig cfg;
    noc::NetworkConfig net;
    std::unique_ptr<noc::NetworkInterconnect> ic;
    memory::SimpleMemory m0, m1;
    std::vector<std::unique_ptr<test::ScriptedRequester>> src;
    Bench(const std::string& topology, unsigned sms, const memory::SimpleMemoryConfig& mem,
          const noc::NocInterconnectConfig& c = {})
        : cfg(c), net(cfg.network_for(topology, sms, 2, 128)), m0("m0", mem, clock, stats), m1("m1", mem, clock, stats) {
        ic = std::make_unique<noc::NetworkInterconnect>("ic", cfg, net, common::AddressMap{2, 256, false}, clock, stats);
        for (unsigned i = 0; i < sms; ++i) {
            src.push_back(std::make_unique<test::ScriptedRequester>(("src" + std::to_string(i)).c_str(), clock));
            src.back()->socket.bind(ic->upstream);
        }
        ic->downstream.bind(m0.upstream);
        ic->downstream.bind(m1.upstream);
    }
    void run(const std::vector<std::vector<test::ScriptedRequest>>& scripts) {
        for (size_t i = 0; i < scripts.size(); ++i) src[i]->start(scripts[i]);
        sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    }
    uint64_t router_overflows() const {
        uint64_t n = 0;
        for (unsigned r = 0; r < ic->network().topology().routers(); ++r)
            n += ic->network().router(r).overflows() + ic->network().router(r).credit_overflows();
        return n;
    }
};

const memory::SimpleMemoryConfig kFast{1000.0, 50, 1000.0, 256};

}  // namespace

TEST_CASE("network interconnect: requests go to the partition of their address and come back", "[noc_ic]") {
    Bench b("mesh", 4, kFast);
    b.run({{{0, 0x000, 128, R}, {0, 0x100, 128, R}, {0, 0x200, 32, W}, {0, 0x3c0, 32, W}}});
    CHECK(b.src[0]->response.size() == 4);
    CHECK(b.stats.value("m0.reads") == 1);
    CHECK(b.stats.value("m1.reads") == 1);
    CHECK(b.stats.value("m0.writes") == 1);  // 0x200 / 256 = 2 -> partition 0
    CHECK(b.stats.value("m1.writes") == 1);  // 0x3c0 / 256 = 3 -> partition 1
    CHECK(b.stats.value("ic.requests") == 4);
    CHECK(b.stats.value("ic.responses") == 4);
    // Reads: 1-flit requests, 5-flit responses (8 + 128 bytes); writes: 2-flit requests, 1-flit responses.
    CHECK(b.stats.value("ic.request_flits") == 1 + 1 + 2 + 2);
    CHECK(b.stats.value("ic.response_flits") == 5 + 5 + 1 + 1);
}

TEST_CASE("network interconnect: a read takes the network's zero-load latency both ways", "[noc_ic]") {
    Bench b("mesh", 4, kFast);
    b.run({{{0, 0x0, 128, R}}});
    // 2x2 mesh: SM 0 at router (0,0), partition 0's controller on the west edge at (0,1): one hop.
    // Per packet (H + 1)(P + L) + 1 + (F - 1) with P = 3, L = 1: request 9 (1 flit), response 13 (5 flits).
    const uint64_t expected = 9 + (50 + 1) + 13;
    REQUIRE(b.src[0]->response.size() == 1);
    INFO("response at " << b.src[0]->response[0] << ", expected about " << expected);
    CHECK(b.src[0]->response[0] >= expected - 1);
    CHECK(b.src[0]->response[0] <= expected + 3);
    CHECK(b.stats.value("ic.net.hops") == Approx(1.0));
}

TEST_CASE("network interconnect: a refusing partition backs the network up and loses nothing", "[noc_ic]") {
    // The memory holds one request at a time for 50 cycles and withholds END_REQ meanwhile:
    // 4 SMs x 12 writes of 5 flits each, all to partition 0.
    Bench b("mesh", 4, memory::SimpleMemoryConfig{1000.0, 50, 1000.0, 1});
    std::vector<std::vector<test::ScriptedRequest>> scripts(4);
    for (uint32_t i = 0; i < 4; ++i)
        for (uint32_t k = 0; k < 12; ++k) scripts[i].push_back({0, (i * 12 + k) * 0x200ull, 128, W});
    b.run(scripts);
    for (uint32_t i = 0; i < 4; ++i) CHECK(b.src[i]->response.size() == 12);
    CHECK(b.stats.value("m0.writes") == 48);
    CHECK(b.stats.value("ic.held_cycles") > 48 * 40);      // each waited for the one before it
    CHECK(b.stats.value("ic.max_held_flits") <= b.net.eject_credits);
    CHECK(b.stats.value("ic.net.packets_created") == 96);
    CHECK(b.stats.value("ic.net.packets_ejected") == 96);
    CHECK(b.router_overflows() == 0);
}

TEST_CASE("network interconnect: a full network withholds END_REQ from the SM and resumes", "[noc_ic]") {
    noc::NocInterconnectConfig cfg;
    cfg.queue_depth = 4;
    Bench b("stacked", 4, memory::SimpleMemoryConfig{1000.0, 20, 1000.0, 1}, cfg);
    std::vector<std::vector<test::ScriptedRequest>> scripts(1);
    for (uint32_t k = 0; k < 40; ++k) scripts[0].push_back({0, k * 0x100ull, 32, W});  // both partitions
    b.run(scripts);
    CHECK(b.src[0]->response.size() == 40);
    CHECK(b.src[0]->times_blocked > 0);
    CHECK(b.stats.value("ic.input_blocked") > 0);
    // Memory traffic goes down at once, crosses the interposer (2x1 under the 4x2 upper mesh) and
    // never uses the upper layer.
    CHECK(b.stats.value("ic.net.vertical_flit_hops") > 0);
    CHECK(b.stats.value("ic.net.lower_flit_hops") > 0);
    CHECK(b.stats.value("ic.net.upper_flit_hops") == 0);
    CHECK(b.router_overflows() == 0);
}

TEST_CASE("network interconnect: the automatic grid fits the SMs and a too-small one is an error naming the key",
          "[noc_ic]") {
    noc::NocInterconnectConfig c;
    auto m = c.network_for("mesh", 16, 8, 128);
    CHECK(m.width == 4);
    CHECK(m.height == 4);
    CHECK(m.memory_controllers == 8);
    CHECK(m.eject_credits >= 5);
    auto s = c.network_for("stacked", 16, 8, 128);
    CHECK(s.width == 4);
    CHECK(s.height == 4);
    CHECK(s.concentration == 2);
    auto v = c.network_for("mesh", 80, 32, 128);
    CHECK(v.width * v.height >= 80);
    c.network.width = 3;
    c.network.height = 3;
    try {
        c.network_for("mesh", 16, 8, 128);
        FAIL("no error");
    } catch (const sim::ConfigError& e) {
        CHECK(std::string(e.what()).rfind("width:", 0) == 0);
    }
}
