// SPDX-License-Identifier: Apache-2.0
// CTA occupancy arithmetic: threads, registers, shared memory and CTA slots.
#include <catch2/catch.hpp>

#include "core/occupancy.h"

using namespace stacksim::core;

TEST_CASE("occupancy: each resource can be the limit", "[occupancy]") {
    SmConfig c;  // 2048 threads, 32 CTAs, 65536 registers, 96 KB shared
    Occupancy o = occupancy(c, 256, 32, 0);
    CHECK(o.ctas == 8);  // 2048 / 256 threads; registers allow 8 too (65536 / (32*256))
    o = occupancy(c, 64, 16, 0);
    CHECK(o.ctas == 32);
    CHECK(o.limited_by == "cta_slots");
    o = occupancy(c, 128, 64, 0);
    CHECK(o.ctas == 8);  // 64 regs x 128 threads = 8192 per CTA
    CHECK(o.limited_by == "registers");
    o = occupancy(c, 128, 16, 40000);
    CHECK(o.ctas == 2);
    CHECK(o.limited_by == "shared_memory");
    o = occupancy(c, 100, 16, 0);  // 100 threads use 4 whole warps
    CHECK(o.ctas == 16);
    CHECK(o.limited_by == "threads");
}

TEST_CASE("occupancy: registers are allocated per warp in units of 256", "[occupancy]") {
    CHECK(registers_per_warp(1) == 256);
    CHECK(registers_per_warp(8) == 256);
    CHECK(registers_per_warp(9) == 512);
    SmConfig c;
    c.registers = 1000;
    CHECK(occupancy(c, 32, 9, 0).ctas == 1);
    CHECK(occupancy(c, 64, 9, 0).ctas == 0);
}
