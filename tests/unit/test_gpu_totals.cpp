// SPDX-License-Identifier: Apache-2.0
// Tests of the GPU-wide totals: which per-instance statistics each total sums.
#include <catch2/catch.hpp>

#include <deque>

#include "top/gpu_totals.h"

using namespace stacksim;

namespace {
// A registry holding counters with the given names and values.
struct Registry {
    sim::StatRegistry stats;
    std::deque<sim::Counter> counters;
    void add(const std::string& name, uint64_t v) {
        counters.emplace_back();
        counters.back() += v;
        stats.add(name, counters.back(), "test counter", "units");
    }
};
}  // namespace

TEST_CASE("gpu totals: sums exactly the numbered instances of each statistic", "[stats][totals]") {
    Registry r;
    r.add("gpu.sm0.warp_instructions", 10);
    r.add("gpu.sm12.warp_instructions", 5);
    r.add("gpu.sm.warp_instructions", 1000);       // no instance number
    r.add("gpu.smx1.warp_instructions", 1000);     // not digits
    r.add("gpu.sm3.warp_instructions_x", 1000);    // longer suffix
    r.add("gpu.sm3_l1.reads", 7);
    r.add("gpu.sm3_l1.read_hits", 3);
    r.add("gpu.mem.l2_0.reads", 40);
    r.add("gpu.mem.l2_1.read_hits", 4);
    r.add("gpu.mem.dram_0.bytes", 128);
    r.add("gpu.mem.dram_1.bytes", 256);
    r.add("gpu.mem.dram_.bytes", 1000);            // no channel number
    r.add("gpu.mem.dram_1.peak_bandwidth_gbps", 9);
    r.add("gpu.mem.dram_1.bandwidth_gbps", 2);
    const top::GpuTotals t(r.stats);
    CHECK(t.warp_instructions() == 15);
    CHECK(t.l1_reads() == 7);
    CHECK(t.l1_read_hits() == 3);
    CHECK(t.l2_reads() == 40);
    CHECK(t.l2_read_hits() == 4);
    CHECK(t.memory_bytes() == 384);
    CHECK(t.memory_bandwidth_gbps() == 2);  // the peak is not an average bandwidth
    CHECK(t.dram_peak_gbps() == 9);
    CHECK(t.has_dram());
}

TEST_CASE("gpu totals: the simple memory's bytes count when there are no DRAM channels", "[stats][totals]") {
    Registry r;
    r.add("gpu.mem.memory.bytes", 64);
    r.add("gpu.mem.memory.bandwidth_gbps", 3);
    r.add("gpu.mem.memoryx.bytes", 1000);
    const top::GpuTotals t(r.stats);
    CHECK(t.memory_bytes() == 64);
    CHECK(t.memory_bandwidth_gbps() == 3);
    CHECK_FALSE(t.has_dram());
}
