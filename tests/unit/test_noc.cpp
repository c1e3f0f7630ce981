// SPDX-License-Identifier: Apache-2.0
// VC router mesh: routing, allocation, credits, zero-load latency, throughput, deadlock freedom.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <systemc>

#include "noc/allocator.h"
#include "noc/noc_run.h"
#include "noc/routing.h"
#include "sim/clock_domain.h"
#include "sim/error.h"
#include "top/noc_command.h"

using namespace stacksim;
using namespace stacksim::noc;

namespace {

MeasureConfig quick_measure() {
    MeasureConfig m;
    m.warmup = 1000;
    m.measure = 5000;
    m.drain_cap = 10000;
    return m;
}

TrafficConfig uniform(double rate, unsigned flits = 4) {
    TrafficConfig t;
    t.rate = rate;
    t.packet_flits = flits;
    return t;
}

}  // namespace

TEST_CASE("noc: xy and yx routes reach every destination in manhattan hops in dimension order") {
    const unsigned w = 8, h = 8;
    for (std::string name : {"xy", "yx"}) {
        auto r = routing_functions().create(name, w, h);
        for (unsigned s = 0; s < w * h; ++s)
            for (unsigned d = 0; d < w * h; ++d) {
                unsigned node = s, hops = 0;
                bool second_dim = false;  // moved in the second dimension already
                for (;;) {
                    unsigned p = r->route(node, d);
                    if (p == kLocal) break;
                    bool is_x = p == kEast || p == kWest;
                    bool first = name == "xy" ? is_x : !is_x;
                    if (first) REQUIRE_FALSE(second_dim);
                    else second_dim = true;
                    unsigned x = node % w, y = node / w;
                    bool inside = p == kEast ? x + 1 < w : p == kWest ? x > 0 : p == kNorth ? y > 0 : y + 1 < h;
                    REQUIRE(inside);
                    node = p == kEast ? node + 1 : p == kWest ? node - 1 : p == kNorth ? node - w : node + w;
                    REQUIRE(++hops <= 14);
                }
                REQUIRE(node == d);
                int dx = int(s % w) - int(d % w), dy = int(s / w) - int(d / w);
                REQUIRE(hops == unsigned(std::abs(dx) + std::abs(dy)));
            }
    }
    CHECK_THROWS_AS(routing_functions().create("west-first", w, h), sim::InputError);
}

TEST_CASE("noc: allocator grants round robin and never double grants") {
    SeparableAllocator a(4, 3);
    // Four inputs contending for output 1: served in turn.
    std::vector<unsigned> order;
    for (int round = 0; round < 8; ++round) {
        for (unsigned i = 0; i < 4; ++i) a.request(i, 1);
        a.allocate();
        REQUIRE(a.granted().size() == 1);
        order.push_back(a.granted()[0]);
    }
    CHECK(order == std::vector<unsigned>{0, 1, 2, 3, 0, 1, 2, 3});
    // Random requests: a matching that respects the requests.
    SeparableAllocator b(16, 16);
    uint64_t seed = 7;
    std::vector<unsigned> wins(16, 0);
    for (int round = 0; round < 2000; ++round) {
        std::vector<uint32_t> req(16, 0);
        for (unsigned i = 0; i < 16; ++i) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            req[i] = static_cast<uint32_t>(seed >> 40) & 0xffff;
            req[i] |= 1u;  // everyone wants output 0 too
            for (unsigned o = 0; o < 16; ++o)
                if (req[i] >> o & 1) b.request(i, o);
        }
        b.allocate();
        std::set<int> outs;
        for (unsigned i : b.granted()) {
            int o = b.grant(i);
            REQUIRE(o >= 0);
            REQUIRE((req[i] >> o & 1));
            REQUIRE(outs.insert(o).second);
            ++wins[i];
        }
        for (unsigned i = 0; i < 16; ++i)
            if (std::find(b.granted().begin(), b.granted().end(), i) == b.granted().end()) REQUIRE(b.grant(i) == -1);
    }
    for (unsigned i = 0; i < 16; ++i) CHECK(wins[i] > 500);  // fair share is ~2000 x matching / 16
}

TEST_CASE("noc: zero load latency equals hops times per hop delay plus overheads") {
    for (unsigned stages : {3u, 4u})
        for (unsigned link : {1u, 2u})
            for (unsigned flits : {1u, 4u, 6u}) {
                NetworkConfig cfg;
                cfg.pipeline_stages = stages;
                cfg.link_latency = link;
                for (auto [src, dst] : {std::pair{0u, 63u}, {9u, 9u}, {7u, 56u}, {20u, 22u}}) {
                    Network net(cfg);
                    Packet p;
                    p.src = src;
                    p.dst = dst;
                    p.flits = flits;
                    p.inject_cycle = 0;
                    net.enqueue(p);
                    run_direct(net, 0, 1000, [&] { return net.stats().packets_ejected.value() == 1; });
                    unsigned hops = std::abs(int(src % 8) - int(dst % 8)) + std::abs(int(src / 8) - int(dst / 8));
                    double expect = (hops + 1.0) * (stages + link) + 1 + (flits - 1);
                    INFO("stages " << stages << " link " << link << " flits " << flits << " " << src << "->" << dst);
                    CHECK(net.stats().packet_latency.mean() == expect);
                    CHECK(net.stats().hops.mean() == hops);
                    CHECK(net.stats().flit_hops.value() == uint64_t{hops} * flits);
                }
            }
}

TEST_CASE("noc: accepted throughput equals offered load below saturation") {
    NetworkConfig cfg;
    for (double rate : {0.05, 0.1}) {
        RunResult r = run_open_loop(cfg, uniform(rate), quick_measure());
        INFO("rate " << rate << " offered " << r.offered << " accepted " << r.accepted);
        CHECK_FALSE(r.saturated);
        CHECK(r.offered == Approx(rate).epsilon(0.05));
        CHECK(r.accepted == Approx(r.offered).epsilon(0.03));
        CHECK(r.hops == Approx(16.0 / 3.0).epsilon(0.05));  // 8x8 uniform, self excluded
        CHECK(r.packet_latency < 40);
    }
}

TEST_CASE("noc: credit flow never overflows a buffer under heavy load") {
    NetworkConfig cfg;
    cfg.buffer_depth = 2;
    for (std::string pattern : {"uniform", "transpose", "hotspot"}) {
        Network net(cfg);
        TrafficConfig t = uniform(0.8, 5);
        t.pattern = pattern;
        SyntheticSource src(t, 8, 8);
        net.set_source(&src);
        run_direct(net, 0, 5000, [] { return false; });
        CHECK(net.stats().flits_ejected.value() > 10000);
        for (unsigned i = 0; i < net.nodes(); ++i) {
            REQUIRE(net.router(i).overflows() == 0);
            REQUIRE(net.router(i).credit_overflows() == 0);
            REQUIRE(net.router(i).max_vc_occupancy() <= cfg.buffer_depth);
        }
    }
}

TEST_CASE("noc: the allocator matches inputs and outputs beyond 64 (10 ports x 8 VCs)") {
    WideSeparableAllocator a(80, 80);
    // Inputs 3, 70 and 79 contend for output 75: served in turn; input 65 alone gets output 2.
    std::vector<unsigned> order;
    for (int round = 0; round < 6; ++round) {
        for (unsigned i : {3u, 70u, 79u}) a.request(i, 75);
        a.request(65, 2);
        a.allocate();
        REQUIRE(a.granted().size() == 2);
        CHECK(a.grant(65) == 2);
        for (unsigned i : {3u, 70u, 79u})
            if (a.grant(i) == 75) order.push_back(i);
    }
    CHECK(order == std::vector<unsigned>{3, 70, 79, 3, 70, 79});
    CHECK_THROWS_AS(WideSeparableAllocator(129, 4), std::invalid_argument);
    CHECK_THROWS_AS(SeparableAllocator(65, 4), std::invalid_argument);
}

TEST_CASE("noc: the thesis's stacked network with 8 VCs of 8 flits runs without overflow or deadlock") {
    // Its interposer routers have 10 ports: 80 input VCs, beyond a 64-bit mask.
    NetworkConfig cfg;
    cfg.topology = "stacked";
    cfg.concentration = 2;
    cfg.memory_controllers = 8;
    cfg.memory_channels = 2;
    cfg.vcs = 8;
    cfg.buffer_depth = 8;
    cfg.routing = "yx";
    Network net(cfg);
    unsigned widest = 0;
    for (unsigned r = 0; r < net.topology().routers(); ++r) widest = std::max(widest, net.topology().ports(r));
    REQUIRE(widest * cfg.vcs > 64);
    TrafficConfig t = uniform(0.9, 4);
    t.memory_fraction = 0.3;
    t.reply_fraction = 0.5;
    SyntheticSource src(t, 8, 8, 8);
    net.set_source(&src);
    uint64_t c = 0, last = 0;
    for (int window = 0; window < 40; ++window) {
        c = run_direct(net, c, c + 250, [] { return false; });
        const uint64_t now = net.stats().flits_ejected.value();
        REQUIRE(now > last);
        last = now;
    }
    for (unsigned r = 0; r < net.topology().routers(); ++r) {
        REQUIRE(net.router(r).overflows() == 0);
        REQUIRE(net.router(r).credit_overflows() == 0);
    }
}

TEST_CASE("noc: saturated mesh keeps ejecting flits with no deadlock") {
    for (std::string routing : {"xy", "yx"}) {
        NetworkConfig cfg;
        cfg.routing = routing;
        cfg.buffer_depth = 2;
        Network net(cfg);
        TrafficConfig t = uniform(1.0, 8);
        t.pattern = "uniform";
        SyntheticSource src(t, 8, 8);
        net.set_source(&src);
        uint64_t c = 0, last = 0;
        for (int window = 0; window < 200; ++window) {
            c = run_direct(net, c, c + 200, [] { return false; });
            uint64_t now = net.stats().flits_ejected.value();
            REQUIRE(now > last);
            last = now;
        }
        // Every node keeps getting served: packets from the queues keep entering.
        CHECK(net.stats().packets_injected.value() > 64 * 100);
    }
}

TEST_CASE("noc: same seed gives identical results and another seed differs") {
    NetworkConfig cfg;
    TrafficConfig t = uniform(0.3);
    t.pattern = "randperm";
    RunResult a = run_open_loop(cfg, t, quick_measure());
    RunResult b = run_open_loop(cfg, t, quick_measure());
    CHECK(a.packet_latency == b.packet_latency);
    CHECK(a.accepted == b.accepted);
    CHECK(a.flit_hops == b.flit_hops);
    CHECK(a.cycles == b.cycles);
    t.seed = 2;
    RunResult c = run_open_loop(cfg, t, quick_measure());
    CHECK(c.flit_hops != a.flit_hops);
}

TEST_CASE("noc: uniform saturation throughput of the 8x8 mesh lies in the textbook range") {
    NetworkConfig cfg;
    MeasureConfig m = quick_measure();
    RunResult sat = run_open_loop(cfg, uniform(1.0), m);
    CHECK(sat.saturated);
    // Ideal bound for uniform traffic on an 8x8 mesh: 4 x bisection / N = 0.5 flits/node/cycle.
    INFO("saturation throughput " << sat.accepted);
    CHECK(sat.accepted > 0.35);
    CHECK(sat.accepted < 0.5);
    RunResult below = run_open_loop(cfg, uniform(0.3), m);
    CHECK_FALSE(below.saturated);
}

TEST_CASE("noc: every traffic pattern runs and permutations keep their destinations") {
    NetworkConfig cfg;
    for (const auto& name : traffic_patterns().names()) {
        TrafficConfig t = uniform(0.05);
        t.pattern = name;
        RunResult r = run_open_loop(cfg, t, quick_measure());
        INFO(name);
        CHECK_FALSE(r.saturated);
        CHECK(r.accepted == Approx(r.offered).epsilon(0.05));
    }
    TrafficConfig t;
    SplitMix64 rng(1);
    t.pattern = "transpose";
    CHECK(make_traffic_pattern(t, 8, 8)->destination(1 * 8 + 2, rng) == 2 * 8 + 1);
    t.pattern = "bitcomp";
    CHECK(make_traffic_pattern(t, 8, 8)->destination(5, rng) == 58);
    t.pattern = "tornado";
    CHECK(make_traffic_pattern(t, 8, 8)->destination(0, rng) == 3 * 8 + 3);
    t.pattern = "shuffle";
    CHECK(make_traffic_pattern(t, 8, 8)->destination(33, rng) == 3);
}

TEST_CASE("noc: clock domain drive matches direct drive") {
    NetworkConfig cfg;
    TrafficConfig t = uniform(0.2);
    MeasureConfig m = quick_measure();
    RunResult direct = run_open_loop(cfg, t, m);
    sim::ClockDomain domain("noc_clock", 1000);
    RunResult clocked = run_open_loop(cfg, t, m, &domain);
    CHECK(clocked.packet_latency == direct.packet_latency);
    CHECK(clocked.network_latency == direct.network_latency);
    CHECK(clocked.accepted == direct.accepted);
    CHECK(clocked.measured_packets == direct.measured_packets);
}

TEST_CASE("noc: idle network sleeps and costs nothing") {
    NetworkConfig cfg;
    Network net(cfg);
    CHECK_FALSE(net.tick(0));
    CHECK(net.next_wake() == ~uint64_t{0});
    TrafficConfig t = uniform(0.00005, 1);  // ~1 packet per 300 cycles
    SyntheticSource src(t, 8, 8);
    net.set_source(&src);
    uint64_t ticks = 0;
    run_direct(net, 0, 100000, [&] { return ++ticks, false; });
    CHECK(ticks < 100000 / 4);
    CHECK(net.stats().packets_ejected.value() > 100);
}

TEST_CASE("noc: bad configuration is a one line config error") {
    NetworkConfig cfg;
    cfg.vcs = 3;
    CHECK_THROWS_WITH(cfg.validate(), Catch::StartsWith("vcs:"));
    cfg = NetworkConfig();
    cfg.routing = "zigzag";
    CHECK_THROWS_WITH(cfg.validate(), Catch::StartsWith("routing:"));
    TrafficConfig t;
    t.pattern = "bitcomp";
    CHECK_THROWS_AS(t.validate(3, 3), sim::ConfigError);
    CHECK_THROWS_AS(top::noc_command({"noc", "--set", "noc.vcs=5"}), sim::InputError);
    CHECK_THROWS_AS(top::noc_command({"noc", "--set", "traffic.bogus=1"}), sim::InputError);
    CHECK_THROWS_AS(top::noc_command({"noc", "--rates", "0.1:0.05:0.01"}), sim::InputError);
    CHECK_THROWS_AS(top::noc_command({"noc", "--pattern", "nope"}), sim::InputError);
}

TEST_CASE("noc: command writes the curve csv") {
    auto dir = std::filesystem::temp_directory_path() / "stacksim_noc_test";
    std::filesystem::remove_all(dir);
    int rc = top::noc_command({"noc", "--rates", "0.05:0.1:0.05", "--set", "traffic.measure=2000", "--set",
                               "noc.width=4", "--set", "noc.height=4", "--out", dir.string()});
    CHECK(rc == 0);
    std::ifstream in(dir / "curve.csv");
    std::string line;
    int lines = 0;
    while (std::getline(in, line)) ++lines;
    CHECK(lines == 3);
    std::filesystem::remove_all(dir);
}

TEST_CASE("noc: islip iterations match inputs that lost the first round") {
    for (unsigned iterations : {1u, 2u}) {
        SeparableAllocator a(2, 2, iterations);
        // Both inputs want both outputs; with fresh pointers both pick output 0 first.
        a.request(0, 0);
        a.request(0, 1);
        a.request(1, 0);
        a.request(1, 1);
        a.allocate();
        CHECK(a.granted().size() == iterations);
        CHECK(a.grant(0) == 0);
        if (iterations == 2) CHECK(a.grant(1) == 1);
    }
    NetworkConfig cfg;
    cfg.allocator_iterations = 2;
    TrafficConfig t = uniform(0.2);
    MeasureConfig m = quick_measure();
    RunResult r = run_open_loop(cfg, t, m);
    CHECK_FALSE(r.saturated);
    CHECK(r.accepted == Approx(r.offered).epsilon(0.03));
    cfg.allocator_iterations = 5;
    CHECK_THROWS_WITH(cfg.validate(), Catch::StartsWith("allocator_iterations:"));
}

namespace {
/// A load view with fixed free slots per direction.
struct FixedLoad : RouteLoad {
    unsigned slots[5] = {0, 0, 0, 0, 0};
    unsigned free_slots(unsigned dir) const override { return slots[dir]; }
};
}  // namespace

TEST_CASE("noc: west_first is minimal, goes west only first, and follows the load") {
    const unsigned w = 8, h = 8;
    auto r = routing_functions().create("west_first", w, h);
    SplitMix64 rng(3);
    for (unsigned s = 0; s < w * h; ++s)
        for (unsigned d = 0; d < w * h; ++d) {
            unsigned node = s, hops = 0;
            bool left_west = false;  // took a non-west hop already
            for (;;) {
                FixedLoad load;
                for (unsigned k = 1; k <= 4; ++k) load.slots[k] = static_cast<unsigned>(rng.next() % 8);
                unsigned p = r->route(node, d, &load);
                if (p == kLocal) break;
                if (p == kWest) REQUIRE_FALSE(left_west);  // no turn into the west
                else left_west = true;
                node = p == kEast ? node + 1 : p == kWest ? node - 1 : p == kNorth ? node - w : node + w;
                REQUIRE(node < w * h);
                REQUIRE(++hops <= 14);
            }
            REQUIRE(node == d);
            int dx = int(s % w) - int(d % w), dy = int(s / w) - int(d / w);
            REQUIRE(hops == unsigned(std::abs(dx) + std::abs(dy)));  // minimal
        }
    // From 0 to 9 (one east, one south) it takes the direction with more free slots.
    FixedLoad south;
    south.slots[kSouth] = 5;
    south.slots[kEast] = 1;
    CHECK(r->route(0, 9, &south) == kSouth);
    FixedLoad east;
    east.slots[kSouth] = 1;
    east.slots[kEast] = 5;
    CHECK(r->route(0, 9, &east) == kEast);
    CHECK(r->route(0, 9, nullptr) == kEast);  // no load: X first
}

TEST_CASE("noc: west_first on a saturated mesh keeps delivering (deadlock-free) and adapts") {
    NetworkConfig cfg;
    cfg.routing = "west_first";
    cfg.buffer_depth = 2;
    Network net(cfg);
    TrafficConfig t = uniform(1.0, 8);
    t.pattern = "transpose";
    SyntheticSource src(t, 8, 8);
    net.set_source(&src);
    uint64_t c = 0, last = 0;
    for (int window = 0; window < 200; ++window) {
        c = run_direct(net, c, c + 200, [] { return false; });
        uint64_t now = net.stats().flits_ejected.value();
        REQUIRE(now > last);
        last = now;
    }
    for (unsigned i = 0; i < 64; ++i) REQUIRE(net.router(i).overflows() == 0);
    // Transpose under XY and under west-first: adapting to the load moves more flits.
    auto accepted = [&](const std::string& routing) {
        NetworkConfig n;
        n.routing = routing;
        TrafficConfig tt = uniform(0.6);
        tt.pattern = "transpose";
        return run_open_loop(n, tt, quick_measure()).accepted;
    };
    CHECK(accepted("west_first") > accepted("xy"));
}
