// SPDX-License-Identifier: Apache-2.0
// 2.5D network: topologies, XY-Z/YX-Z routes, memory traffic, deadlock freedom on every topology,
// configs and the noc command (the DLL field, the ring and the layer policies:
// test_noc_layer_policies.cpp).
#include <catch2/catch.hpp>

#include "tests/unit/policy_spec.h"
#include "tests/unit/stacked_network.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "noc/latency_ring.h"
#include "noc/layer_policy.h"
#include "noc/netrace_replay.h"
#include "noc/noc_run.h"
#include "noc/router.h"
#include "noc/topology.h"
#include "sim/error.h"
#include "top/noc_command.h"
#include "tests/test_data.h"

using namespace stacksim;
using namespace stacksim::noc;
using stacksim::test::stacked;

namespace {

struct Walk {
    std::vector<LinkKind> kinds;  ///< link kinds in order, ending with Terminal
    unsigned end_terminal = ~0u;
};

/// Follows the route of a head flit from src to wherever it is ejected.
Walk walk(const Topology& t, unsigned src, unsigned dst, bool lower) {
    Flit f;
    f.src = src;
    f.dst = dst;
    f.lower = lower;
    f.head = true;
    Walk w;
    unsigned r = t.terminal_router(src);
    for (int guard = 0; guard < 200; ++guard) {
        unsigned p = t.route(r, f);
        const PortLink& l = t.link(r, p);
        w.kinds.push_back(l.kind);
        if (l.kind == LinkKind::Terminal) {
            w.end_terminal = static_cast<unsigned>(l.terminal);
            return w;
        }
        REQUIRE(l.kind != LinkKind::None);
        r = static_cast<unsigned>(l.router);
    }
    FAIL("route does not terminate");
    return w;
}

}  // namespace

TEST_CASE("stacked: topology has 64 cores over 16 interposer routers with 8 edge controllers") {
    auto t = Topology::create(stacked());
    CHECK(t->routers() == 80);
    CHECK(t->terminals() == 72);
    CHECK(t->cores() == 64);
    CHECK(t->memory_controllers() == 8);
    CHECK(t->grids() == 16);
    CHECK(t->links(LinkKind::Vertical) == 128);      // 64 each way
    CHECK(t->links(LinkKind::Upper) == 2 * 112);     // 8x8 mesh
    CHECK(t->links(LinkKind::Lower) == 2 * 24);      // 4x4 mesh: half the upper bisection
    for (unsigned m = 64; m < 72; ++m) {
        unsigned g = t->grid(m);
        CHECK((g % 4 == 0 || g % 4 == 3));  // west or east edge column
    }
    std::set<unsigned> grids;
    for (unsigned m = 64; m < 72; ++m) grids.insert(t->grid(m));
    CHECK(grids.size() == 8);
    // Core 9 = (1, 1) sits over interposer router 0, core 36 = (4, 4) over router 10.
    CHECK(t->grid(9) == 0);
    CHECK(t->grid(36) == 10);
    CHECK(t->grid_upper_routers(10).size() == 4);
}

TEST_CASE("stacked: every route arrives with the vertical hop first and last as configured") {
    for (std::string routing : {"xy", "yx"}) {
        auto t = Topology::create(stacked(routing));
        for (unsigned s = 0; s < t->terminals(); ++s)
            for (unsigned d = 0; d < t->terminals(); ++d) {
                if (s == d || (t->is_memory(s) && t->is_memory(d))) continue;
                for (bool lower : {false, true}) {
                    Walk w = walk(*t, s, d, lower);
                    INFO(routing << " " << s << "->" << d << " lower " << lower);
                    REQUIRE(w.end_terminal == d);
                    bool memory = t->is_memory(s) || t->is_memory(d);
                    bool crosses = memory || lower;
                    std::vector<size_t> vertical;
                    for (size_t i = 0; i < w.kinds.size(); ++i)
                        if (w.kinds[i] == LinkKind::Vertical) vertical.push_back(i);
                    if (!crosses || (lower && !memory && t->terminal_router(s) == t->terminal_router(d))) {
                        CHECK(vertical.empty());
                        for (auto k : w.kinds) CHECK(k != LinkKind::Lower);
                        continue;
                    }
                    // Down first (from a core), up last (to a core); interposer links between.
                    if (!t->is_memory(s)) CHECK((!vertical.empty() && vertical.front() == 0));
                    if (!t->is_memory(d)) CHECK((!vertical.empty() && vertical.back() + 2 == w.kinds.size()));
                    for (size_t i = 0; i < w.kinds.size(); ++i)
                        if (w.kinds[i] == LinkKind::Upper) FAIL("interposer packet used an upper link");
                }
            }
    }
}

TEST_CASE("stacked: yx-z reaches the edge column last and xy-z first") {
    // Core 0 over grid 0 to the controller on the east edge of interposer row 3.
    for (std::string routing : {"xy", "yx"}) {
        auto t = Topology::create(stacked(routing));
        unsigned mc = 0;
        for (unsigned m = 64; m < 72; ++m)
            if (t->grid(m) == 15) mc = m;
        REQUIRE(mc != 0);
        Flit f;
        f.src = 0;
        f.dst = mc;
        f.head = true;
        unsigned r = t->terminal_router(0), edge_routers = 0;
        for (;;) {
            unsigned p = t->route(r, f);
            const PortLink& l = t->link(r, p);
            if (l.kind == LinkKind::Terminal) break;
            r = static_cast<unsigned>(l.router);
            if (t->layer(r) == 1 && (r - 64) % 4 == 3) ++edge_routers;
        }
        // XY-Z runs along the east edge column (rows 0..3); YX-Z enters it only at row 3.
        CHECK(edge_routers == (routing == "xy" ? 4u : 1u));
    }
}

TEST_CASE("mesh: concentrated mesh routes every pair and attaches controllers at the edges") {
    NetworkConfig c;
    c.width = 8;
    c.height = 8;
    c.concentration = 2;
    c.memory_controllers = 4;
    auto t = Topology::create(c);
    CHECK(t->routers() == 16);
    CHECK(t->terminals() == 68);
    for (unsigned s = 0; s < t->terminals(); ++s)
        for (unsigned d = 0; d < t->terminals(); ++d)
            if (s != d) REQUIRE(walk(*t, s, d, false).end_terminal == d);
}

TEST_CASE("stacked: zero load latency follows the hop count across both layers") {
    auto cfg = stacked();
    Network net(cfg);
    Packet p;
    p.src = 0;   // core (0, 0) over grid 0
    p.dst = 71;  // a controller on the east edge
    p.flits = 4;
    net.enqueue(p);
    run_direct(net, 0, 1000, [&] { return net.stats().packets_ejected.value() == 1; });
    unsigned hops = static_cast<unsigned>(net.stats().hops.mean());
    CHECK(hops >= 4);  // down + at least three interposer links east
    double expect = (hops + 1.0) * (cfg.pipeline_stages + cfg.link_latency) + 1 + 3;
    CHECK(net.stats().packet_latency.mean() == expect);
    CHECK(net.stats().vertical_flit_hops.value() == 4);  // one vertical link x 4 flits
    CHECK(net.stats().memory_packets.value() == 1);
}

TEST_CASE("stacked: memory fraction sends that share of packets to the controllers") {
    auto cfg = stacked();
    TrafficConfig t;
    t.rate = 0.1;
    t.memory_fraction = 0.3;
    MeasureConfig m;
    m.warmup = 500;
    m.measure = 4000;
    RunResult r = run_open_loop(cfg, t, m);
    CHECK_FALSE(r.saturated);
    CHECK(r.accepted == Approx(r.offered).epsilon(0.03));
    CHECK(r.memory_packets > 0);
    // The share among all packets of the run.
    TrafficConfig zero = t;
    zero.memory_fraction = 0.0;
    RunResult z = run_open_loop(cfg, zero, m);
    CHECK(z.memory_packets == 0);
    CHECK(z.lower_utilisation == 0.0);
    CHECK(r.lower_utilisation > 0.0);
    // Memory traffic converges on the controllers' edge columns.
    CHECK(r.edge_utilisation > 1.2 * r.centre_utilisation);
    TrafficConfig bad = t;
    CHECK_THROWS_AS(bad.validate(8, 8, 0), sim::ConfigError);
}

TEST_CASE("stacked: memory share of injected packets matches memory_fraction") {
    auto cfg = stacked();
    Network net(cfg);
    TrafficConfig t;
    t.rate = 0.2;
    t.memory_fraction = 0.25;
    SyntheticSource src(t, 8, 8, 8);
    net.set_source(&src);
    run_direct(net, 0, 5000, [] { return false; });
    double share = static_cast<double>(net.stats().memory_packets.value()) / net.stats().packets_injected.value();
    CHECK(share == Approx(0.25).margin(0.02));
}

TEST_CASE("stacked: every topology and policy keeps making progress under saturation") {
    struct Case {
        std::string topology;
        unsigned concentration, mcs;
        std::string policy;
    };
    std::vector<Case> cases = {{"mesh", 1, 0, "dor"},        {"mesh", 2, 4, "dor"},  {"stacked", 2, 8, "dor"},
                               {"stacked", 2, 8, "localbuf"}, {"stacked", 2, 8, "destdetect"},
                               {"stacked", 2, 8, "dll"}};
    for (const auto& k : cases)
        for (std::string routing : {"xy", "yx"}) {
            NetworkConfig cfg;
            cfg.topology = k.topology;
            cfg.concentration = k.concentration;
            cfg.memory_controllers = k.mcs;
            cfg.routing = routing;
            cfg.buffer_depth = 2;
            const bool latency = std::string(k.policy) == "destdetect" || std::string(k.policy) == "dll";
            cfg.layer_policy =  // divert often
                test::policy_spec(layer_policies(), k.policy, latency ? "latency_threshold = 1" : "");
            Network net(cfg);
            TrafficConfig t;
            t.rate = 0.9;
            t.packet_flits = 6;
            t.reply_fraction = 0.5;
            t.memory_fraction = k.mcs ? 0.3 : 0.0;
            SyntheticSource src(t, 8, 8, k.mcs);
            net.set_source(&src);
            uint64_t c = 0, last = 0;
            INFO(k.topology << " c" << k.concentration << " " << k.policy << " " << routing);
            for (int window = 0; window < 40; ++window) {
                c = run_direct(net, c, c + 250, [] { return false; });
                uint64_t now = net.stats().flits_ejected.value();
                REQUIRE(now > last);  // the watchdog: something left the network in every window
                last = now;
            }
            for (unsigned r = 0; r < net.topology().routers(); ++r) {
                REQUIRE(net.router(r).overflows() == 0);
                REQUIRE(net.router(r).credit_overflows() == 0);
            }
            if (k.policy != "dor") CHECK(net.stats().diverted_packets.value() > 0);
        }
}

TEST_CASE("stacked: yx-z outlasts xy-z under heavy memory traffic") {
    MeasureConfig m;
    m.warmup = 1000;
    m.measure = 3000;
    m.drain_cap = 6000;
    m.latency_bound = 300;
    TrafficConfig t;
    t.memory_fraction = 0.75;
    RunResult xy = saturation_throughput(stacked("xy"), t, m, 0.02, 0.6, 0.01);
    RunResult yx = saturation_throughput(stacked("yx"), t, m, 0.02, 0.6, 0.01);
    INFO("xy-z " << xy.accepted << " yx-z " << yx.accepted);
    CHECK(yx.accepted > 1.2 * xy.accepted);
}

TEST_CASE("stacked: dll beats dor at low memory traffic (thesis ch.5)") {
    // The thesis's headline direction on the shipped 2.5D system (4 VCs x 8 flits, YX-Z, DLL's
    // default parameters): with 5% memory traffic the upper layer binds, and DLL's diverting
    // coherence packets over the interposer raises the saturation throughput (the validation
    // table measures +20% or more on these patterns with longer windows).
    MeasureConfig m;
    m.warmup = 500;
    m.measure = 2000;
    m.drain_cap = 4000;
    m.latency_bound = 300;
    for (std::string pattern : {"uniform", "transpose"}) {
        TrafficConfig t;
        t.pattern = pattern;
        t.memory_fraction = 0.05;
        RunResult dor = saturation_throughput(stacked("yx", "dor"), t, m, 0.05, 0.8, 0.01);
        RunResult dll = saturation_throughput(stacked("yx", "dll"), t, m, 0.05, 0.8, 0.01);
        INFO(pattern << ": dor " << dor.accepted << " dll " << dll.accepted << " diverted " << dll.diverted_packets);
        CHECK(dll.diverted_packets > 0);
        CHECK(dll.accepted > 1.1 * dor.accepted);
    }
}

TEST_CASE("stacked: netrace traces replay completely under every policy") {
    for (std::string policy : {"dor", "localbuf", "destdetect", "dll"})
        for (std::string trace : {"regions", "small"}) {
            auto cfg = stacked("yx", policy);
            ReplayResult r = replay_netrace(stacksim::test::data_path("netrace/" + trace + ".tra.bz2"), cfg);
            INFO(policy << " " << trace);
            CHECK(r.complete);
            CHECK(r.delivered == r.packets);
            CHECK(r.memory_packets > 0);
        }
}

TEST_CASE("stacked: bad sizes and names are one line config errors") {
    auto expect_error = [](NetworkConfig c, const std::string& key) {
        try {
            c.validate();
            FAIL("no error for " << key);
        } catch (const sim::ConfigError& e) {
            CHECK(std::string(e.what()).rfind(key + ":", 0) == 0);
        }
    };
    auto c = stacked();
    c.concentration = 3;
    expect_error(c, "concentration");
    c = stacked();
    c.concentration = 1;
    expect_error(c, "concentration");
    c = stacked();
    c.topology = "torus";
    expect_error(c, "topology");
    c = stacked();
    c.layer_policy = "destdetect";
    c.topology = "mesh";
    c.concentration = 1;
    expect_error(c, "layer_policy");
    auto read_error = [](const std::string& toml) {
        auto doc = sim::ConfigDoc::from_string(toml, "t.toml");
        NetworkConfig n;
        try {
            NetworkConfig::params().read_into(doc.section("noc"), n);
        } catch (const sim::ConfigError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(read_error("[noc]\nlayer_policy = \"random\"\n").rfind("t.toml:2: noc.layer_policy: 'random' is not one of", 0) == 0);
    CHECK(read_error("[noc]\ntopology = \"stacked\"\nconcentration = 2\nlayer_policy = \"dll\"\n[noc.dll]\nring_links = 3\n") ==
          "t.toml:6: noc.dll.ring_links: must be a power of two, got 3");
    c = stacked();
    c.vcs = 14;  // 4 up + 4 mesh + 2 controller ports x 14 VCs > 128
    CHECK_THROWS_AS(Network(c), sim::ConfigError);
}

TEST_CASE("stacked: noc command runs the shipped 2.5D config and reports the policy counters") {
    auto dir = std::filesystem::temp_directory_path() / "stacksim_noc_stacked_test";
    std::filesystem::remove_all(dir);
    int rc = top::noc_command({"noc", STACKSIM_SOURCE_DIR "/configs/noc/stacked.toml", "--rate", "0.1", "--set",
                               "traffic.measure=2000", "--out", dir.string()});
    CHECK(rc == 0);
    std::ifstream in(dir / "curve.csv");
    std::string header, row;
    std::getline(in, header);
    std::getline(in, row);
    CHECK(header.find("diverted_packets") != std::string::npos);
    CHECK(header.find("ring_sent") != std::string::npos);
    CHECK(std::count(row.begin(), row.end(), ',') == std::count(header.begin(), header.end(), ','));
    std::filesystem::remove_all(dir);
    CHECK_THROWS_WITH(top::noc_command({"noc", STACKSIM_SOURCE_DIR "/configs/noc/stacked.toml", "--set",
                                        "noc.layer_policy=magic"}),
                      Catch::Contains("layer_policy"));
    CHECK_THROWS_WITH(top::noc_command({"noc", STACKSIM_SOURCE_DIR "/configs/noc/stacked.toml", "--set",
                                        "noc.ring_lanes=4"}),
                      Catch::Contains("ring_lanes"));
    CHECK_THROWS_AS(top::noc_command({"noc", "--saturation", "--rate", "0.1"}), sim::InputError);
    CHECK_THROWS_WITH(top::noc_command({"noc", "--set", "noc.layer_policy=dll"}),
                      Catch::Contains("needs the stacked topology"));
    CHECK_THROWS_WITH(top::noc_command({"noc", STACKSIM_SOURCE_DIR "/configs/noc/stacked.toml", "--set", "noc.vcs=14"}),
                      Catch::Contains("noc.vcs"));
}

TEST_CASE("stacked: controller channels are separate terminals on the controller's router") {
    auto cfg = stacked();
    cfg.memory_channels = 2;
    auto t = Topology::create(cfg);
    CHECK(t->terminals() == 80);
    CHECK(t->memory_controllers() == 8);
    CHECK(t->memory_terminals() == 16);
    for (unsigned mc = 0; mc < 8; ++mc) {
        unsigned a = 64 + 2 * mc, b = a + 1;
        CHECK(t->terminal_router(a) == t->terminal_router(b));
        CHECK(t->terminal_port(a) != t->terminal_port(b));
        CHECK(walk(*t, 9, b, false).end_terminal == b);
    }
    // Trace node 16 = (0, 2) sits over grid 4 on the west edge: its controller is there.
    CHECK(t->grid(t->nearest_memory_controller(16)) == 4);
    CHECK((t->nearest_memory_controller(16) - 64) % 2 == 0);
}

TEST_CASE("stacked: a netrace speedup loads the network and keeps dependencies") {
    auto cfg = stacked("yx", "dll");
    cfg.memory_channels = 2;
    const std::string path = stacksim::test::data_path("netrace/regions.tra.bz2");
    ReplayResult slow = replay_netrace(path, cfg, 16, 100'000'000, 1.0);
    ReplayResult fast = replay_netrace(path, cfg, 16, 100'000'000, 20.0);
    CHECK(slow.complete);
    CHECK(fast.complete);
    CHECK(fast.cycles < slow.cycles / 5);
    CHECK(fast.packet_latency > slow.packet_latency);  // congestion
    CHECK(fast.delayed > slow.delayed);               // more packets wait for their dependencies
    CHECK_THROWS_AS(replay_netrace(path, cfg, 16, 1000, 0.5), sim::InputError);
}

TEST_CASE("stacked: controllers can sit on the north and south edges instead") {
    auto cfg = stacked();
    cfg.memory_placement = "north_south";
    auto t = Topology::create(cfg);
    for (unsigned m = 64; m < 72; ++m) {
        unsigned g = t->grid(m);
        CHECK((g / 4 == 0 || g / 4 == 3));  // north or south edge row
        for (unsigned s : {0u, 27u, 63u}) CHECK(walk(*t, s, m, false).end_terminal == m);
    }
    // With controllers north and south, XY-Z is the routing that enters their rows last.
    MeasureConfig m;
    m.warmup = 500;
    m.measure = 2000;
    TrafficConfig tr;
    tr.rate = 0.15;
    tr.memory_fraction = 0.75;
    cfg.routing = "xy";
    RunResult xy = run_open_loop(cfg, tr, m);
    cfg.routing = "yx";
    RunResult yx = run_open_loop(cfg, tr, m);
    CHECK(xy.edge_utilisation < yx.edge_utilisation);
    cfg.memory_placement = "diagonal";
    CHECK_THROWS_WITH(cfg.validate(), Catch::StartsWith("memory_placement:"));
}
