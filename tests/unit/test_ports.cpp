// SPDX-License-Identifier: Apache-2.0
// TargetPort and InitiatorPort: queue depth, END_REQ withholding and release, responses, zero
// delay, protocol errors (one elaboration per test case, each in its own process).
#include <catch2/catch.hpp>

#include <functional>
#include <systemc>

#include "sim/error.h"
#include "sim/failure.h"
#include "tests/unit/port_bench.h"

using namespace stacksim;
using Catch::Matchers::Contains;

namespace {

/// Runs `f` once, from a clock domain's tick.
struct Once : sim::Clocked {
    std::function<void()> f;
    bool tick(uint64_t) override {
        f();
        return false;
    }
};

/// A raw initiator the test drives call by call, bound to a PortTarget of `depth` that serves
/// from cycle `from` on.
struct TargetBench {
    sim::ClockDomain clk{"clk", 1000};
    test::RawInitiator init{"init"};
    test::PortTarget tgt;
    sim::PayloadPool pool;
    TargetBench(size_t depth, uint64_t from) : tgt("tgt", clk, depth, from, 1) { init.socket.bind(tgt.upstream); }
};

/// A PortInitiator bound to a RawTarget that the test drives call by call; elaborated.
struct InitiatorBench {
    sim::ClockDomain clk{"clk", 1000};
    test::PortInitiator init{"init", clk};
    test::RawTarget tgt{"tgt"};
    InitiatorBench() {
        init.downstream.bind(tgt.socket);
        test::finish_elaboration();
    }
};

/// The message of the failure recorded during sc_start(), or "" if none.
std::string recorded_failure() {
    try {
        sim::rethrow_failure();
    } catch (const sim::SimulationError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("target port: a full queue withholds END_REQ until a slot frees", "[ports]") {
    sim::ClockDomain clk("clk", 1000);
    test::PortInitiator init("init", clk);
    test::PortTarget tgt("tgt", clk, 2, 10, 5);  // depth 2; serves one a cycle from cycle 10
    init.downstream.bind(tgt.upstream);
    init.start(4);
    sc_core::sc_start(sc_core::sc_time(5, sc_core::SC_NS));
    // Two requests fill the queue, the third is withheld and the initiator stops.
    CHECK(init.accepted_at_once == std::vector<bool>{true, true, false});
    CHECK(tgt.arrivals == 3);
    CHECK(tgt.upstream.size() == 2);
    CHECK(tgt.upstream.has_withheld());
    CHECK_FALSE(init.downstream.can_send());
    CHECK(init.end_req.empty());

    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    // Cycle 10 frees a slot: the withheld request is queued and its END_REQ sent; the fourth
    // finds room at once.
    CHECK(init.end_req == std::vector<uint64_t>{10});
    CHECK(init.accepted_at_once == std::vector<bool>{true, true, false, true});
    CHECK(tgt.served == std::vector<uint32_t>{0, 1, 2, 3});
    CHECK(init.response == std::map<uint32_t, uint64_t>{{0, 15}, {1, 16}, {2, 17}, {3, 18}});
    CHECK(tgt.upstream.empty());
    CHECK_FALSE(tgt.upstream.has_withheld());
    CHECK(init.pool.in_use() == 0);
}

TEST_CASE("target port: END_REQ and responses arrive in zero time", "[ports]") {
    sim::ClockDomain clk("clk", 1000);
    test::PortInitiator init("init", clk);
    test::PortTarget tgt("tgt", clk, 1, 0, 3);
    init.downstream.bind(tgt.upstream);
    init.start(3);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    // Depth 1: the second request waits until the first leaves the queue (cycle 1); the third
    // goes the cycle after, behind the second's departure.
    CHECK(init.accepted_at_once == std::vector<bool>{true, false, true});
    CHECK(init.end_req == std::vector<uint64_t>{1});
    REQUIRE(init.response.size() == 3);
    for (auto& [tag, t] : tgt.responded) CHECK(init.response_time.at(tag) == t);
    CHECK(init.response == std::map<uint32_t, uint64_t>{{0, 4}, {1, 5}, {2, 6}});
}

TEST_CASE("target port: an unexpected phase ends the run with an error naming the socket", "[ports]") {
    TargetBench b(4, 0);
    Once once;
    once.f = [&] {
        tlm::tlm_phase ph = tlm::END_RESP;  // no initiator here holds responses open
        b.init.call(b.pool.acquire(), ph);
    };
    b.clk.activate(once);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    const std::string msg = recorded_failure();
    CHECK_THAT(msg, Contains("tgt.upstream"));
    CHECK_THAT(msg, Contains("unexpected phase END_RESP"));
    CHECK(b.tgt.arrivals == 0);
}

TEST_CASE("target port: a second BEGIN_REQ before END_REQ or a non-zero delay is an error", "[ports]") {
    TargetBench b(1, 100);
    test::RawInitiator& init = b.init;
    sim::PayloadPool& pool = b.pool;
    test::finish_elaboration();
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    CHECK(init.call(pool.acquire(), ph) == tlm::TLM_UPDATED);
    CHECK(ph == tlm::END_REQ);
    ph = tlm::BEGIN_REQ;
    CHECK(init.call(pool.acquire(), ph) == tlm::TLM_ACCEPTED);  // queue full: withheld
    ph = tlm::BEGIN_REQ;
    CHECK_THROWS_AS(init.call(pool.acquire(), ph), sim::SimulationError);
    ph = tlm::BEGIN_REQ;
    CHECK_THROWS_WITH(init.call(pool.acquire(), ph, sc_core::sc_time(1, sc_core::SC_NS)),
                      Contains("non-zero annotated delay"));
    CHECK(b.tgt.arrivals == 2);
}

TEST_CASE("initiator port: END_REQ unblocks and responses are answered TLM_COMPLETED", "[ports]") {
    InitiatorBench b;
    test::PortInitiator& init = b.init;
    test::RawTarget& tgt = b.tgt;
    tgt.answer = tlm::TLM_ACCEPTED;
    init.count = 2;
    init.tick(0);
    CHECK(init.accepted_at_once == std::vector<bool>{false});  // stopped behind the first
    CHECK_FALSE(init.downstream.can_send());
    REQUIRE(tgt.received.size() == 1);
    CHECK(tgt.backward(*tgt.received[0], tlm::END_REQ) == tlm::TLM_ACCEPTED);
    CHECK(init.end_req.size() == 1);
    CHECK(init.downstream.can_send());
    CHECK(tgt.backward(*tgt.received[0], tlm::BEGIN_RESP) == tlm::TLM_COMPLETED);
    CHECK(init.response.count(0) == 1);
    // BEGIN_RESP for a request still waiting for END_REQ ends its request phase too.
    init.tick(1);
    REQUIRE(tgt.received.size() == 2);
    CHECK_FALSE(init.downstream.can_send());
    CHECK(tgt.backward(*tgt.received[1], tlm::BEGIN_RESP) == tlm::TLM_COMPLETED);
    CHECK(init.downstream.can_send());
    CHECK(init.end_req.size() == 2);
    CHECK(init.response.count(1) == 1);
    CHECK(init.pool.in_use() == 0);
}

TEST_CASE("initiator port: an immediate response or a re-entrant END_REQ ends the request phase", "[ports]") {
    InitiatorBench b;
    test::PortInitiator& init = b.init;
    test::RawTarget& tgt = b.tgt;
    init.count = 1;
    tgt.answer = tlm::TLM_COMPLETED;
    init.tick(0);
    CHECK(init.accepted_at_once == std::vector<bool>{true});
    CHECK(init.response.count(0) == 1);  // delivered inside send()
    init.count = 2;
    tgt.answer = tlm::TLM_UPDATED;
    tgt.answer_phase = tlm::BEGIN_RESP;
    init.tick(1);
    CHECK(init.response.count(1) == 1);
    init.count = 3;
    tgt.answer = tlm::TLM_ACCEPTED;
    tgt.end_req_inside = true;
    init.tick(2);
    CHECK(init.accepted_at_once == std::vector<bool>{true, true, false});
    CHECK(init.end_req.size() == 1);  // told once, through the backward path
    CHECK(init.downstream.can_send());
}

TEST_CASE("initiator port: an unexpected phase or a stray END_REQ is a protocol error", "[ports]") {
    InitiatorBench b;
    test::PortInitiator& init = b.init;
    test::RawTarget& tgt = b.tgt;
    init.count = 1;
    init.tick(0);  // accepted at once: nothing waits for END_REQ
    REQUIRE(tgt.received.size() == 1);
    tlm::tlm_generic_payload& p = *tgt.received[0];
    CHECK_THROWS_WITH(tgt.backward(p, tlm::END_REQ), Contains("init.downstream") && Contains("END_REQ"));
    CHECK_THROWS_WITH(tgt.backward(p, tlm::BEGIN_REQ), Contains("unexpected phase BEGIN_REQ"));
    CHECK_THROWS_WITH(tgt.backward(p, tlm::BEGIN_RESP, sc_core::sc_time(1, sc_core::SC_NS)),
                      Contains("non-zero annotated delay"));
    tgt.answer_phase = tlm::END_RESP;  // TLM_UPDATED with a phase that cannot answer BEGIN_REQ
    init.count = 2;
    CHECK_THROWS_WITH(init.tick(1), Contains("unexpected phase END_RESP"));
}
