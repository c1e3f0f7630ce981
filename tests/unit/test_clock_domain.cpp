// SPDX-License-Identifier: Apache-2.0
// Clock domain: ticks only active components, sleeps to timed wakes, costs nothing idle.
#include <catch2/catch.hpp>

#include <systemc>
#include <vector>

#include "sim/clock_domain.h"

using namespace stacksim;

namespace {
/// Works for `busy` cycles whenever woken, then sleeps until `sleep_to` (if set).
struct Worker : sim::Clocked {
    sim::ClockDomain* d = nullptr;
    std::vector<uint64_t> ticked;
    uint64_t busy = 0;
    uint64_t sleep_to = 0;
    bool tick(uint64_t cycle) override {
        ticked.push_back(cycle);
        if (busy > 1) {
            --busy;
            return true;
        }
        busy = 0;
        if (sleep_to > cycle) d->wake_at(*this, sleep_to);
        return false;
    }
};
}  // namespace

TEST_CASE("clock: an active component is ticked each cycle, then sleeps until its wake", "[clock]") {
    sim::ClockDomain d("d", 1000);  // 1 GHz
    Worker w;
    w.d = &d;
    w.busy = 3;
    w.sleep_to = 100;
    d.activate(w);
    sc_core::sc_start(sc_core::sc_time(150, sc_core::SC_NS));
    REQUIRE(w.ticked.size() == 4);
    CHECK(w.ticked[0] == 0);
    CHECK(w.ticked[2] == 2);
    CHECK(w.ticked[3] == 100);  // slept from cycle 3 to 99
    CHECK(d.ticks() == 4);
    CHECK(d.busy_edges() == 4);
}

TEST_CASE("clock: idle components cost nothing, activation from outside aligns to the next edge", "[clock]") {
    sim::ClockDomain d("d", 1000);
    std::vector<Worker> idle(1000);
    Worker w;
    w.d = &d;
    for (auto& i : idle) i.d = &d;  // registered nowhere: never activated
    struct Kicker : sc_core::sc_module {
        SC_HAS_PROCESS(Kicker);
        sim::ClockDomain& d;
        Worker& w;
        Kicker(sc_core::sc_module_name n, sim::ClockDomain& dd, Worker& ww) : sc_module(n), d(dd), w(ww) {
            SC_THREAD(run);
        }
        void run() {
            wait(sc_core::sc_time(10500, sc_core::SC_PS));  // between edges 10 and 11
            d.activate(w);
        }
    } kicker("kicker", d, w);
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    REQUIRE(w.ticked.size() == 1);
    CHECK(w.ticked[0] == 11);
    CHECK(d.ticks() == 1);  // a millisecond of simulated time, one tick in all
    for (auto& i : idle) CHECK(i.ticked.empty());
}

TEST_CASE("clock: activation during a component's own tick keeps it awake", "[clock]") {
    sim::ClockDomain d("d", 1000);
    struct Self : sim::Clocked {
        sim::ClockDomain* d;
        int n = 0;
        bool tick(uint64_t) override {
            if (++n < 3) d->activate(*this);  // e.g. a synchronous response arrived
            return false;
        }
    } s;
    s.d = &d;
    d.activate(s);
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_NS));
    CHECK(s.n == 3);
}
