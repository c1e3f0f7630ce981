// SPDX-License-Identifier: Apache-2.0
// Netrace replay on the mesh: every packet of the project's (and the third-party) traces delivered, dependencies waited for.
#include <catch2/catch.hpp>

#include "noc/netrace_reader.h"
#include "noc/netrace_replay.h"
#include "sim/error.h"
#include "tests/test_data.h"

using namespace stacksim;

namespace {
/// A trace of tests/data/netrace (noc/netrace_writer, scripts/make_test_data.sh).
std::string trace(const std::string& name) { return test::data_path("netrace/" + name + ".tra.bz2"); }

void check_delivered(const std::string& path) {
    INFO(path);
    noc::ReplayResult r = noc::replay_netrace(path, noc::NetworkConfig{});
    CHECK(r.complete);
    CHECK(r.delivered == r.packets);
    CHECK(r.packets > 0);
    // Packets start no earlier than their trace cycle, so the run ends after the trace's
    // last injection plus at least one zero-load trip.
    CHECK(r.cycles >= r.trace_cycles);
    CHECK(r.packet_latency > 10);
    CHECK(r.hops > 1);
}
}  // namespace

TEST_CASE("netrace replay: the project's traces are delivered completely on the 8x8 mesh", "[netrace][noc]") {
    for (const char* name : {"small", "regions"}) check_delivered(trace(name));
}

TEST_CASE("netrace replay: the third-party traces (../shared) are delivered completely on the 8x8 mesh",
          "[netrace][noc]") {
    for (const char* name : {"example", "shrtex", "multiregion", "lngrex"})
        check_delivered(test::third_party_trace(std::string("netrace/") + name + ".tra.bz2"));
}

TEST_CASE("netrace replay: dependent packets wait for the packets they depend on", "[netrace][noc]") {
    noc::ReplayResult r = noc::replay_netrace(trace("small"), noc::NetworkConfig{});
    CHECK(r.delayed > 0);
    // A slower network (longer links) makes more packets wait and the run longer.
    noc::NetworkConfig slow;
    slow.link_latency = 8;
    noc::ReplayResult s = noc::replay_netrace(trace("small"), slow);
    CHECK(s.complete);
    CHECK(s.delayed >= r.delayed);
    CHECK(s.cycles > r.cycles);
    CHECK(s.packet_latency > r.packet_latency);
}

TEST_CASE("netrace replay: a mesh smaller than the trace is an input error", "[netrace][noc]") {
    noc::NetworkConfig small;
    small.width = 4;
    small.height = 4;
    CHECK_THROWS_AS(noc::replay_netrace(trace("small"), small), sim::InputError);
}
