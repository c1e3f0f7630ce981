// SPDX-License-Identifier: Apache-2.0
// 2.5D network: the DLL latency field, the latency ring and the layer policies' decision rules.
#include <catch2/catch.hpp>

#include "tests/unit/policy_spec.h"
#include "tests/unit/stacked_network.h"

#include "noc/latency_ring.h"
#include "noc/layer_policy.h"
#include "noc/noc_run.h"
#include "noc/router.h"
#include "noc/topology.h"

using namespace stacksim;
using namespace stacksim::noc;
using stacksim::test::head_with;
using stacksim::test::stacked;
using stacksim::test::StackedRouters;

TEST_CASE("dll: the per hop latency field is the running mean of router residence") {
    NetworkConfig c;  // 8x8 mesh
    auto t = Topology::create(c);
    RouterParams rp{t->ports(9), 0, 4, 4, 3};
    for (unsigned p = 0; p < rp.ports; ++p)
        if (t->link(9, p).kind == LinkKind::Terminal) rp.terminal_ports |= uint64_t{1} << p;
    Router r(9, rp, *t);
    Flit f = head_with(0, 10, 3, false);  // mean 3 cycles over 2 routers so far
    f.hops = 2;
    f.tail = true;
    const unsigned east = 0;
    r.set_output_credits(east, 0);  // blocked: stays until a credit comes back
    r.receive_flit(2, f, 100);      // from the west
    std::vector<Router::Departure> out;
    uint64_t cycle = 100;
    for (; cycle < 110; ++cycle) r.step(cycle, out);
    REQUIRE(out.empty());
    r.receive_credit(east, 0);
    r.receive_credit(east, 1);
    for (; out.empty() && cycle < 200; ++cycle) r.step(cycle, out);
    REQUIRE(out.size() == 1);
    uint64_t t_out = cycle - 1;
    double expect = (3.0 * 2 + static_cast<double>(t_out - 100)) / 3.0;
    CHECK(out[0].flit.hop_latency / 256.0 == Approx(expect).margin(1.0 / 256));
    CHECK(out[0].out_port == east);
}

TEST_CASE("dll: recorded latency saturates at 15") {
    CHECK(recorded_hop_latency(head_with(0, 1, 3, false), 15) == 3);
    CHECK(recorded_hop_latency(head_with(0, 1, 15, false), 15) == 15);
    CHECK(recorded_hop_latency(head_with(0, 1, 40, false), 15) == 15);
    Flit f = head_with(0, 1, 0, false);
    f.hop_latency = 0xffff;
    CHECK(recorded_hop_latency(f, 15) == 15);
}

TEST_CASE("ring: link is chosen by the top bits of the target grid") {
    LatencyRing ring(16, 4, 2, 4);
    for (unsigned g = 0; g < 16; ++g) CHECK(ring.link_of(g) == g >> 2);
    LatencyRing two(16, 2, 2, 4);
    CHECK(two.link_of(7) == 0);
    CHECK(two.link_of(8) == 1);
}

TEST_CASE("ring: a message takes two cycles per hop and ring traffic beats injection") {
    LatencyRing ring(16, 4, 2, 4);
    std::vector<CongestionMessage> out;
    CongestionMessage a{9, 7, 1, 0};   // from stop 3 to grid 9 (link 2): six hops
    REQUIRE(ring.send(3, a));
    CongestionMessage b{10, 2, 0, 0};  // from stop 5, same link
    uint64_t delivered_a = 0, delivered_b = 0;
    for (uint64_t c = 0; c < 100; ++c) {
        // b is queued exactly when a passes stop 5 (a injected at cycle 0, two hops later).
        if (c == 4) REQUIRE(ring.send(5, b));
        out.clear();
        ring.tick(c, out);
        for (auto& m : out) (m.target == 9 ? delivered_a : delivered_b) = c;
    }
    CHECK(delivered_a == 12);      // 6 hops x 2 cycles after injection at cycle 0
    CHECK(ring.blocked() >= 1);    // b waited while a occupied the register at stop 5
    CHECK(delivered_b == 6 + 10);  // injected one hop later (cycle 6), five hops
    CHECK(ring.delivered() == 2);
    CHECK_FALSE(ring.busy());
}

TEST_CASE("ring: a full grid buffer drops new messages and a local report skips the ring") {
    LatencyRing ring(16, 4, 2, 2);
    CHECK(ring.send(0, CongestionMessage{5, 1, 0, 0}));
    CHECK(ring.send(0, CongestionMessage{6, 1, 0, 0}));
    CHECK_FALSE(ring.send(0, CongestionMessage{7, 1, 0, 0}));
    CHECK(ring.dropped() == 1);
    CHECK(ring.send(4, CongestionMessage{4, 9, 1, 0}));
    REQUIRE(ring.local().size() == 1);
    CHECK(ring.local()[0].latency == 9);
}

TEST_CASE("policies: dor never diverts") {
    auto cfg = stacked();
    auto t = Topology::create(cfg);
    std::vector<std::unique_ptr<Router>> routers;
    auto p = layer_policies().create("dor", LayerPolicyEnv{*t, routers});
    for (int i = 0; i < 10; ++i) p->received(head_with(1, 2, 15, false), 0);
    CHECK_FALSE(p->divert(0, 36, 0));
}

TEST_CASE("policies: destdetect compares the latencies a node received on each layer") {
    auto cfg = stacked();
    auto t = Topology::create(cfg);
    std::vector<std::unique_ptr<Router>> routers;
    auto p = layer_policies().create("destdetect", LayerPolicyEnv{*t, routers});
    CHECK_FALSE(p->divert(5, 40, 0));
    // Node 5 received slow upper-layer packets and fast interposer ones: 12 - 2 > 8.
    for (int i = 0; i < 5; ++i) p->received(head_with(40, 5, 12, false), 0);
    for (int i = 0; i < 5; ++i) p->received(head_with(40, 5, 2, true), 0);
    CHECK(p->divert(5, 40, 0));
    CHECK_FALSE(p->divert(6, 40, 0));  // another node saw nothing
    // Only the last five samples count: five fast upper packets end the diversion (6 - 2 < 8).
    for (int i = 0; i < 5; ++i) p->received(head_with(40, 5, 6, false), 0);
    CHECK_FALSE(p->divert(5, 40, 0));
    // Exactly at the threshold does not divert.
    for (int i = 0; i < 5; ++i) p->received(head_with(40, 5, 10, false), 0);
    CHECK_FALSE(p->divert(5, 40, 0));
}

TEST_CASE("policies: dll reports to the source grid over the ring and applies both thresholds") {
    auto cfg = stacked();
    auto t = Topology::create(cfg);
    std::vector<std::unique_ptr<Router>> routers;
    auto p = layer_policies().create("dll", LayerPolicyEnv{*t, routers});
    auto run_ring = [&] {
        for (uint64_t c = 0; c < 200 && p->busy(); ++c) p->tick(c);
    };
    // Packets from core 0 (grid 0) received at core 63 (grid 15): reports travel the ring.
    for (int i = 0; i < 5; ++i) {
        p->received(head_with(0, 63, 13, false), 0);
        p->received(head_with(0, 63, 3, true), 0);
        run_ring();
    }
    CHECK(p->divert(0, 63, 0));   // 13 - 3 > 3 (the default threshold) and 3 < 8
    CHECK(p->divert(1, 20, 0));   // core 1 shares grid 0
    CHECK_FALSE(p->divert(2, 20, 0));  // core 2 is in grid 1: nothing reported there
    // The interposer over its own limit stops the diversion even with the gap.
    for (int i = 0; i < 5; ++i) {
        p->received(head_with(0, 63, 9, true), 0);
        run_ring();
    }
    CHECK_FALSE(p->divert(0, 63, 0));  // 13 - 9 > 3, but the interposer's 9 is over its limit 8
    auto q = layer_policies().create(
        test::policy_spec(layer_policies(), "dll", "latency_threshold = 2\ninterposer_limit = 8"),
        LayerPolicyEnv{*t, routers});
    for (int i = 0; i < 5; ++i) {
        q->received(head_with(0, 63, 15, false), 0);
        q->received(head_with(0, 63, 9, true), 0);
        for (uint64_t c = 0; c < 200 && q->busy(); ++c) q->tick(c);
    }
    CHECK_FALSE(q->divert(0, 63, 0));  // gap 6 > 2 but the interposer's 9 is over its limit 8
    // The default threshold is 3 cycles/hop (the swept best): a gap of 4 diverts, one of 3 does not.
    auto d = layer_policies().create("dll", LayerPolicyEnv{*t, routers});
    auto report = [&](unsigned upper, unsigned lower) {
        for (int i = 0; i < 5; ++i) {
            d->received(head_with(0, 63, upper, false), 0);
            d->received(head_with(0, 63, lower, true), 0);
            for (uint64_t c = 0; c < 200 && d->busy(); ++c) d->tick(c);
        }
    };
    report(5, 1);
    CHECK(d->divert(0, 63, 0));
    report(4, 1);
    CHECK_FALSE(d->divert(0, 63, 0));
}

TEST_CASE("policies: localbuf diverts when two routers of the grid are congested and the interposer is not") {
    StackedRouters g;
    auto& routers = g.routers;
    auto p = layer_policies().create("localbuf", LayerPolicyEnv{*g.t, routers});
    auto fill = [&](unsigned r, unsigned port, unsigned flits) { g.fill(r, port, flits); };
    // Grid 0 is upper routers 0, 1, 8, 9 over interposer router 64. A port holds 4 VCs x 4 = 16.
    fill(0, 0, 10);  // 62% of its east input
    CHECK_FALSE(p->divert(0, 40, 0));  // one congested router is not enough
    fill(1, 1, 9);   // 56%: not congested
    CHECK_FALSE(p->divert(0, 40, 0));
    fill(1, 1, 1);   // 62%
    CHECK(p->divert(0, 40, 0));
    CHECK(p->divert(9, 40, 0));        // any core of the grid
    CHECK_FALSE(p->divert(2, 40, 0));  // grid 1 is calm
    fill(64, 0, 12);  // the interposer router congested too
    CHECK_FALSE(p->divert(0, 40, 0));
}

TEST_CASE("policies: localbuf with scope router judges a router by all its buffers together (thesis ch.5)") {
    StackedRouters g;
    auto& routers = g.routers;
    const auto& t = g.t;
    auto port_scope = layer_policies().create("localbuf", LayerPolicyEnv{*t, routers});
    auto router_scope = layer_policies().create(test::policy_spec(layer_policies(), "localbuf", "scope = \"router\""),
                                                LayerPolicyEnv{*t, routers});
    auto fill = [&](unsigned r, unsigned port, unsigned flits) { g.fill(r, port, flits); };
    // One full input port of routers 0 and 1 (grid 0): congested per port, not per router.
    fill(0, 0, 16);
    fill(1, 1, 16);
    CHECK(port_scope->divert(0, 40, 0));
    CHECK(routers[0]->occupancy() < 0.6);
    CHECK_FALSE(router_scope->divert(0, 40, 0));
    // Fill every input port of both routers past 60% (10 of 16 flits each): congested as a whole.
    for (unsigned r : {0u, 1u})
        for (unsigned port = 0; port < t->ports(r); ++port) fill(r, port, port == r ? 0 : 10);
    CHECK(routers[0]->occupancy() > 0.6);
    CHECK(router_scope->divert(0, 40, 0));
}

TEST_CASE("policies: localbuf with scope active judges a router by the buffers it uses") {
    StackedRouters g;
    auto& routers = g.routers;
    const auto& t = g.t;
    auto active = layer_policies().create(test::policy_spec(layer_policies(), "localbuf", "scope = \"active\""),
                                          LayerPolicyEnv{*t, routers});
    auto fill = [&](unsigned r, unsigned port, unsigned flits) { g.fill(r, port, flits); };
    CHECK(routers[0]->active_occupancy() == 0.0);  // nothing in use
    // Routers 0 and 1 (grid 0) each hold two full VCs and one VC with one flit: 9 of 12 flits
    // in use (75%) although the whole router is 9 / 80 full and no port is 60% full.
    fill(0, 0, 9);
    fill(1, 1, 9);
    CHECK(routers[0]->active_occupancy() == Approx(0.75));
    CHECK(routers[0]->occupancy() < 0.2);
    CHECK(routers[0]->max_port_occupancy() < 0.6);
    CHECK(active->divert(0, 40, 0));
    CHECK_FALSE(layer_policies().create("localbuf", LayerPolicyEnv{*t, routers})->divert(0, 40, 0));
    // One flit in a VC of each of two more ports: router 1 holds 11 flits in 5 VCs of 4
    // (55%) and is no longer congested; 3 more flits in one of those VCs (14 of 20) make it so.
    fill(1, 2, 1);
    fill(1, 3, 1);
    CHECK(routers[1]->active_occupancy() == Approx(11.0 / 20.0));
    CHECK_FALSE(active->divert(0, 40, 0));
    fill(1, 2, 3);
    REQUIRE(active->divert(0, 40, 0));
    // The interposer router congested too stops the diversion.
    fill(64, 0, 4);
    CHECK_FALSE(active->divert(0, 40, 0));
}
