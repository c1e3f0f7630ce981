// SPDX-License-Identifier: Apache-2.0
// Netrace replay on the mesh: every packet of the shipped traces delivered, dependencies waited for.
#include <catch2/catch.hpp>

#include "noc/netrace_reader.h"
#include "noc/netrace_replay.h"
#include "sim/error.h"

using namespace stacksim;

namespace {
std::string trace(const std::string& name) {
    return std::string(STACKSIM_SOURCE_DIR) + "/../shared/traces/netrace/" + name + ".tra.bz2";
}
}  // namespace

TEST_CASE("netrace replay: every shipped trace is delivered completely on the 8x8 mesh", "[netrace][noc]") {
    for (const char* name : {"example", "shrtex", "multiregion", "lngrex"}) {
        INFO(name);
        noc::ReplayResult r = noc::replay_netrace(trace(name), noc::NetworkConfig{});
        CHECK(r.complete);
        CHECK(r.delivered == r.packets);
        CHECK(r.packets > 0);
        // Packets start no earlier than their trace cycle, so the run ends after the trace's
        // last injection plus at least one zero-load trip.
        CHECK(r.cycles >= r.trace_cycles);
        CHECK(r.packet_latency > 20);
        CHECK(r.hops > 1);
    }
}

TEST_CASE("netrace replay: dependent packets wait for the packets they depend on", "[netrace][noc]") {
    noc::ReplayResult r = noc::replay_netrace(trace("example"), noc::NetworkConfig{});
    CHECK(r.delayed > 0);
    // A slower network (longer links) makes more packets wait and the run longer.
    noc::NetworkConfig slow;
    slow.link_latency = 8;
    noc::ReplayResult s = noc::replay_netrace(trace("example"), slow);
    CHECK(s.complete);
    CHECK(s.delayed >= r.delayed);
    CHECK(s.cycles > r.cycles);
    CHECK(s.packet_latency > r.packet_latency);
}

TEST_CASE("netrace replay: a mesh smaller than the trace is an input error", "[netrace][noc]") {
    noc::NetworkConfig small;
    small.width = 4;
    small.height = 4;
    CHECK_THROWS_AS(noc::replay_netrace(trace("example"), small), sim::InputError);
}
