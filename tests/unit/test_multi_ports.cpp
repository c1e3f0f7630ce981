// SPDX-License-Identifier: Apache-2.0
// MultiTargetPort and MultiInitiatorPort: per-initiator withholding and its order, independence
// of initiators and targets, opt-in response back-pressure (one elaboration per test case).
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "sim/error.h"
#include "sim/multi_initiator_port.h"
#include "sim/multi_target_port.h"
#include "tests/unit/port_bench.h"

using namespace stacksim;
using Catch::Matchers::Contains;

namespace {

using Log = std::vector<std::pair<std::string, tlm::tlm_generic_payload*>>;

/// Takes requests in while fewer than `capacity` are held and the initiator is not refused.
struct Sink : sc_core::sc_module {
    sim::MultiTargetPort upstream{"upstream"};
    size_t capacity = 1;
    std::set<int> refused;
    std::vector<std::pair<int, tlm::tlm_generic_payload*>> held;
    Log end_resp;

    explicit Sink(sc_core::sc_module_name n) : sc_module(n) {
        upstream.on_request([this](int port, tlm::tlm_generic_payload& p) { return take(port, p); });
    }
    bool take(int port, tlm::tlm_generic_payload& p) {
        if (held.size() >= capacity || refused.count(port)) return false;
        held.emplace_back(port, &p);
        return true;
    }
};

/// Three raw initiators bound to a Sink, logging into one list.
struct ThreeToOne {
    Log log;
    test::RawInitiator i0{"i0"}, i1{"i1"}, i2{"i2"};
    Sink sink{"sink"};
    sim::PayloadPool pool;
    ThreeToOne() {
        for (test::RawInitiator* i : {&i0, &i1, &i2}) {
            i->log = &log;
            i->socket.bind(sink.upstream);
        }
    }
    tlm::tlm_sync_enum begin_req(test::RawInitiator& i, tlm::tlm_generic_payload& p) {
        tlm::tlm_phase ph = tlm::BEGIN_REQ;
        return i.call(p, ph);
    }
};

/// Sends through a MultiInitiatorPort and logs its hooks.
struct Source : sc_core::sc_module {
    sim::MultiInitiatorPort downstream{"downstream"};
    std::vector<std::pair<std::string, int>> log;
    explicit Source(sc_core::sc_module_name n) : sc_module(n) {
        downstream.on_end_req([this](int port, tlm::tlm_generic_payload&) { log.emplace_back("END_REQ", port); });
        downstream.on_response([this](int port, tlm::tlm_generic_payload&) { log.emplace_back("BEGIN_RESP", port); });
    }
};

}  // namespace

TEST_CASE("multi target port: withheld requests are admitted in the order they were withheld", "[ports]") {
    ThreeToOne b;
    test::finish_elaboration();
    auto& a = b.pool.acquire();
    auto& c = b.pool.acquire();
    auto& d = b.pool.acquire();
    CHECK(b.begin_req(b.i0, a) == tlm::TLM_UPDATED);
    CHECK(b.begin_req(b.i2, c) == tlm::TLM_ACCEPTED);
    CHECK(b.begin_req(b.i1, d) == tlm::TLM_ACCEPTED);
    CHECK(b.sink.upstream.withheld(0) == nullptr);
    CHECK(b.sink.upstream.withheld(2) == &c);
    CHECK(b.sink.upstream.withheld(1) == &d);
    CHECK(b.log.empty());

    auto admit = [&](int port, tlm::tlm_generic_payload& p) { return b.sink.take(port, p); };
    b.sink.capacity = 2;  // room for one: the first withheld (i2) goes, i1 keeps its place
    b.sink.upstream.admit_withheld(admit);
    CHECK(b.log == Log{{"i2 END_REQ", &c}});
    CHECK(b.sink.upstream.withheld(1) == &d);
    b.sink.capacity = 3;
    b.sink.upstream.admit_withheld(admit);
    CHECK(b.log == Log{{"i2 END_REQ", &c}, {"i1 END_REQ", &d}});
    CHECK(b.sink.upstream.withheld(1) == nullptr);
    b.sink.upstream.admit_withheld(admit);  // nothing withheld: nothing happens
    CHECK(b.log.size() == 2);
}

TEST_CASE("multi target port: each initiator is withheld, admitted and answered on its own", "[ports]") {
    ThreeToOne b;
    b.sink.capacity = 10;
    b.sink.refused = {1};
    test::finish_elaboration();
    auto& r1 = b.pool.acquire();
    CHECK(b.begin_req(b.i1, r1) == tlm::TLM_ACCEPTED);
    // i1 waits; i0 and i2 go on.
    auto& r0 = b.pool.acquire();
    auto& r2 = b.pool.acquire();
    CHECK(b.begin_req(b.i0, r0) == tlm::TLM_UPDATED);
    CHECK(b.begin_req(b.i2, r2) == tlm::TLM_UPDATED);
    CHECK(b.begin_req(b.i0, b.pool.acquire()) == tlm::TLM_UPDATED);
    CHECK_THROWS_WITH(b.begin_req(b.i1, b.pool.acquire()), Contains("sink.upstream") && Contains("initiator 1"));
    // Admitting i1 directly sends END_REQ to i1 alone and forgets its place in the order.
    b.sink.upstream.admit(1);
    CHECK(b.log == Log{{"i1 END_REQ", &r1}});
    b.sink.upstream.admit_withheld([](int, tlm::tlm_generic_payload&) -> bool {
        FAIL("nothing is withheld any more");
        return true;
    });
    CHECK(b.sink.upstream.respond(2, r2));
    CHECK(b.sink.upstream.respond(1, r1));
    CHECK(b.log == Log{{"i1 END_REQ", &r1}, {"i2 BEGIN_RESP", &r2}, {"i1 BEGIN_RESP", &r1}});
    CHECK(r2.get_response_status() == tlm::TLM_OK_RESPONSE);
    CHECK_THROWS_AS(b.sink.upstream.admit(1), sim::SimulationError);
}

TEST_CASE("multi target port: a response left open without on_end_resp is an error", "[ports]") {
    ThreeToOne b;
    b.i0.resp_answer = tlm::TLM_ACCEPTED;
    test::finish_elaboration();
    auto& p = b.pool.acquire();
    CHECK(b.begin_req(b.i0, p) == tlm::TLM_UPDATED);
    CHECK_THROWS_WITH(b.sink.upstream.respond(0, p), Contains("sink.upstream") && Contains("TLM_ACCEPTED"));
    tlm::tlm_phase ph = tlm::END_RESP;
    CHECK_THROWS_WITH(b.i0.call(p, ph), Contains("unexpected phase END_RESP"));
}

TEST_CASE("multi target port: with on_end_resp, END_RESP completes a response left open", "[ports]") {
    ThreeToOne b;
    b.sink.upstream.on_end_resp(
        [&](int port, tlm::tlm_generic_payload& p) { b.sink.end_resp.emplace_back(std::to_string(port), &p); });
    b.i1.resp_answer = tlm::TLM_ACCEPTED;
    test::finish_elaboration();
    auto& p0 = b.pool.acquire();
    auto& p1 = b.pool.acquire();
    CHECK(b.sink.upstream.respond(0, p0));       // i0 completes at once
    CHECK_FALSE(b.sink.upstream.respond(1, p1));  // i1 holds it open
    CHECK_THROWS_WITH(b.sink.upstream.respond(1, b.pool.acquire()), Contains("before its END_RESP"));
    tlm::tlm_phase ph = tlm::END_RESP;
    CHECK_THROWS_WITH(b.i0.call(p0, ph), Contains("END_RESP for a response that does not wait"));
    ph = tlm::END_RESP;
    CHECK(b.i1.call(p1, ph) == tlm::TLM_COMPLETED);
    CHECK(b.sink.end_resp == Log{{"1", &p1}});
    CHECK_FALSE(b.sink.upstream.respond(1, p1));  // allowed again now; i1 holds this one open too
}

TEST_CASE("multi initiator port: a target that withholds END_REQ blocks only its own port", "[ports]") {
    Source src("src");
    test::RawTarget t0("t0"), t1("t1");
    src.downstream.bind(t0.socket);
    src.downstream.bind(t1.socket);
    t0.answer = tlm::TLM_ACCEPTED;
    sim::PayloadPool pool;
    test::finish_elaboration();
    auto& a = pool.acquire();
    CHECK_FALSE(src.downstream.send(0, a));
    CHECK_FALSE(src.downstream.can_send(0));
    CHECK(src.downstream.can_send(1));
    CHECK(src.downstream.send(1, pool.acquire()));
    CHECK(src.downstream.send(1, pool.acquire()));
    CHECK(t1.received.size() == 2);
    CHECK_THROWS_AS(src.downstream.send(0, pool.acquire()), sim::SimulationError);
    CHECK(t0.backward(a, tlm::END_REQ) == tlm::TLM_ACCEPTED);
    CHECK(src.downstream.can_send(0));
    CHECK(t1.backward(*t1.received[1], tlm::BEGIN_RESP) == tlm::TLM_COMPLETED);
    CHECK(src.log == std::vector<std::pair<std::string, int>>{{"END_REQ", 0}, {"BEGIN_RESP", 1}});
    CHECK_THROWS_WITH(t1.backward(*t1.received[0], tlm::END_REQ), Contains("src.downstream"));
}
