// SPDX-License-Identifier: Apache-2.0
// Router pipeline options: route computation at the VC head (BookSim's iq router) and credit delay.
#include <catch2/catch.hpp>

#include <vector>

#include "noc/network.h"
#include "noc/network_config.h"
#include "noc/router.h"
#include "noc/topology.h"

using namespace stacksim::noc;

namespace {
/// Cycles at which three back-to-back 1-flit packets, queued in one input VC of router 9 of an
/// 8x8 mesh, leave for the east (4-stage pipeline).
std::vector<uint64_t> departures(bool route_at_head) {
    NetworkConfig c;
    auto t = Topology::create(c);
    RouterParams rp{t->ports(9), 0, 4, 8, 4, 1, route_at_head};
    Router r(9, rp, *t);
    const unsigned west = 2;
    for (unsigned i = 0; i < 3; ++i) {
        Flit f;
        f.packet = i;
        f.src = 8;
        f.dst = 15;  // same row, east
        f.head = f.tail = true;
        r.receive_flit(west, f, i);
    }
    std::vector<uint64_t> at;
    std::vector<Router::Departure> out;
    for (uint64_t cycle = 0; cycle < 40 && at.size() < 3; ++cycle) {
        out.clear();
        r.step(cycle, out);
        for (size_t k = 0; k < out.size(); ++k) at.push_back(cycle);
    }
    REQUIRE(at.size() == 3);
    return at;
}
}  // namespace

TEST_CASE("router: a queued packet pays route computation at the VC head with route_stage head", "[noc]") {
    // From arrival: route + VA one cycle after arrival, so the queued packets follow every 2 cycles.
    const auto arrival = departures(false);
    CHECK(arrival[1] - arrival[0] == 2);
    CHECK(arrival[2] - arrival[1] == 2);
    // At the head (BookSim): RC, VA and SA each take a cycle once the packet is at the front.
    const auto head = departures(true);
    CHECK(head[0] == arrival[0]);  // a packet arriving to an empty VC: the same as before
    CHECK(head[1] - head[0] == 3);
    CHECK(head[2] - head[1] == 3);
}

TEST_CASE("router: credit_delay slows a packet only where it waits for credits", "[noc]") {
    // At zero load no credit is waited for: the latency does not change.
    auto latency = [](unsigned credit_delay, unsigned depth) {
        NetworkConfig c;
        c.credit_delay = credit_delay;
        c.buffer_depth = depth;
        c.vcs = 2;
        Network net(c);
        Packet p;
        p.id = 1;
        p.src = 0;
        p.dst = 7;
        p.flits = 8;
        net.enqueue(p);
        uint64_t cycle = 0;
        for (; cycle < 1000 && net.stats().packets_ejected.value() == 0; ++cycle) net.tick(cycle);
        return cycle;
    };
    // With 8-flit buffers an 8-flit packet never waits for a credit; with 2-flit buffers the
    // head's credits must come back before the rest can follow, so the delay shows.
    CHECK(latency(4, 8) == latency(0, 8));
    CHECK(latency(4, 2) > latency(0, 2));
}

namespace {
/// Cycles the body flit of a 2-flit packet waits in router 9 (switch win - arrival) when it
/// arrives 10 cycles after its head, which has long gone: a gap, as when the flits of several
/// packets interleave on a link.
uint64_t gapped_body_wait(bool route_at_head) {
    NetworkConfig c;
    auto t = Topology::create(c);
    RouterParams rp{t->ports(9), 0, 4, 8, 4, 1, route_at_head};
    Router r(9, rp, *t);
    const unsigned west = 2;
    Flit head;
    head.packet = 1;
    head.src = 8;
    head.dst = 15;
    head.head = true;
    Flit body = head;
    body.head = false;
    body.tail = true;
    const uint64_t body_arrival = 10;
    std::vector<Router::Departure> out;
    for (uint64_t cycle = 0; cycle < 40; ++cycle) {
        if (cycle == 0) r.receive_flit(west, head, cycle);
        if (cycle == body_arrival) r.receive_flit(west, body, cycle);
        out.clear();
        r.step(cycle, out);
        for (const auto& d : out)
            if (d.flit.tail) return cycle - body_arrival;
    }
    FAIL("the body flit never left");
    return 0;
}
}  // namespace

TEST_CASE("router: with route_stage head a body flit bids for the switch the cycle it arrives", "[noc]") {
    // BookSim's iq router: body flits need no RC or VA, so a body flit at the front of its
    // (already allocated) VC takes part in switch allocation in the cycle it is written.
    CHECK(gapped_body_wait(true) == 0);
    // From arrival (the default): every flit passes the stages before SA.
    CHECK(gapped_body_wait(false) == 2);
}
