// SPDX-License-Identifier: Apache-2.0
// Warp and special registers (core/ops_warp.cpp): match, redux, bmsk, nanosleep, %lanemask_*,
// %globaltimer, %envreg*, WARP_SZ, and their parse errors.
#include <algorithm>
#include <map>

#include "tests/unit/ptx_test_util.h"

using namespace stacksim;
using test::WarpFixture;

namespace {

/// Asserts that parsing snippet(body) fails with a message containing `needle`.
void parse_fails(const std::string& body, const std::string& needle) {
    try {
        workloads::parse_ptx(test::snippet(body), "bad.ptx");
        FAIL("no PtxError for: " << body);
    } catch (const workloads::PtxError& e) {
        CHECK_THAT(e.what(), Catch::Contains(needle));
    }
}

}  // namespace

TEST_CASE("warp: lane masks and WARP_SZ and the launch's special registers", "[exec][warp]") {
    WarpFixture f(
        "mov.u32 %r0, %lanemask_eq;\nmov.u32 %r1, %lanemask_lt;\nmov.u32 %r2, %lanemask_le;\n"
        "mov.u32 %r3, %lanemask_gt;\nmov.u32 %r4, %lanemask_ge;\nmov.u32 %r5, WARP_SZ;\n"
        "mov.u32 %r6, %nsmid;\nmov.u32 %r7, %gridid;\nmov.u32 %r8, %dynamic_smem_size;\n"
        "mov.u32 %r9, %total_smem_size;\nmov.u64 %rd0, %globaltimer;\nmov.u32 %r10, %envreg1;\n"
        "mov.u32 %r11, %envreg2;\nmov.u32 %r12, %envreg31;\nmov.u32 %r13, %nwarpid;\n"
        "mov.u32 %r14, %globaltimer_lo;\nmov.u32 %r15, %clock_hi;");
    f.cta.num_sms = 80;
    f.cta.grid_id = 7;
    f.cta.dynamic_smem = 96;
    f.cta.max_warps = 48;
    f.cta.clock_period_ps = 625;  // 1.6 GHz
    f.cta.grid_workspace = 0x0000'0012'3456'7800ull;
    f.warp.clock = (uint64_t{3} << 32) + 1600;
    f.run();
    for (unsigned l = 0; l < 32; ++l) {
        const uint64_t bit = uint64_t{1} << l;
        INFO("lane " << l);
        CHECK(f.reg("%r0", l) == bit);
        CHECK(f.reg("%r1", l) == bit - 1);
        CHECK(f.reg("%r2", l) == (2 * bit - 1));
        CHECK(f.reg("%r3", l) == (0xFFFFFFFFull & ~(2 * bit - 1)));
        CHECK(f.reg("%r4", l) == (0xFFFFFFFFull & ~(bit - 1)));
    }
    CHECK(f.reg("%r5") == 32);
    CHECK(f.reg("%r6") == 80);
    CHECK(f.reg("%r7") == 7);
    CHECK(f.reg("%r8") == 96);
    CHECK(f.reg("%r9") == 256);  // the fixture's shared allocation
    const uint64_t ns = ((uint64_t{3} << 32) + 1600) * 625 / 1000;
    CHECK(f.reg("%rd0") == ns);
    CHECK(f.reg("%r14") == uint32_t(ns));
    CHECK(f.reg("%r15") == 3);
    CHECK(f.reg("%r10") == 0x12);
    CHECK(f.reg("%r11") == 0x34567800);
    CHECK(f.reg("%r12") == 0);
    CHECK(f.reg("%r13") == 48);
}

TEST_CASE("warp: match.any and match.all group the executing lanes by value", "[exec][warp]") {
    WarpFixture f("match.any.sync.b32 %r1, %r0, %r2;\nmatch.all.sync.b32 %r3|%p1, %r0, %r2;\n"
                  "match.all.sync.b32 %r4|%p2, %r5, %r2;\nmatch.any.sync.b64 %r6, %rd0, %r2;");
    const uint32_t mask = 0x7FFF'FFF0u;  // lanes 4-30 execute
    for (unsigned l = 0; l < 32; ++l) {
        f.reg("%r0", l) = l % 3;
        f.reg("%r2", l) = mask;
        f.reg("%r5", l) = 9;
        f.reg("%rd0", l) = (uint64_t(l % 2) << 40) | 5;  // equal low words: the high word decides
    }
    f.run(mask);
    for (unsigned l = 4; l < 31; ++l) {
        uint32_t same = 0, same64 = 0;
        for (unsigned o = 4; o < 31; ++o) {
            if (o % 3 == l % 3) same |= 1u << o;
            if (o % 2 == l % 2) same64 |= 1u << o;
        }
        INFO("lane " << l);
        CHECK(f.reg("%r1", l) == same);
        CHECK(f.reg("%r3", l) == 0);
        CHECK(f.reg("%p1", l) == 0);
        CHECK(f.reg("%r4", l) == mask);
        CHECK(f.reg("%p2", l) == 1);
        CHECK(f.reg("%r6", l) == same64);
    }
    CHECK(f.reg("%r1", 0) == 0);  // lanes outside the mask are not written
}

TEST_CASE("warp: redux.sync over the executing lanes", "[exec][warp]") {
    WarpFixture f("redux.sync.add.u32 %r1, %r0, %r2;\nredux.sync.min.s32 %r3, %r0, %r2;\n"
                  "redux.sync.min.u32 %r4, %r0, %r2;\nredux.sync.max.s32 %r5, %r0, %r2;\n"
                  "redux.sync.max.u32 %r6, %r0, %r2;\nredux.sync.and.b32 %r7, %r0, %r2;\n"
                  "redux.sync.or.b32 %r8, %r0, %r2;\nredux.sync.xor.b32 %r9, %r0, %r2;");
    const uint32_t mask = 0xFFFF'00FFu;
    uint32_t add = 0, umin = ~0u, umax = 0, band = ~0u, bor = 0, bxor = 0;
    int32_t smin = INT32_MAX, smax = INT32_MIN;
    for (unsigned l = 0; l < 32; ++l) {
        const uint32_t v = 0x9E3779B9u * (l + 1);
        f.reg("%r0", l) = v;
        f.reg("%r2", l) = mask;
        if (!(mask >> l & 1)) continue;
        add += v, umin = std::min(umin, v), umax = std::max(umax, v), band &= v, bor |= v, bxor ^= v;
        smin = std::min(smin, int32_t(v)), smax = std::max(smax, int32_t(v));
    }
    f.run(mask);
    for (unsigned l : {0u, 7u, 16u, 31u}) {
        CHECK(f.reg("%r1", l) == add);
        CHECK(f.reg("%r3", l) == uint32_t(smin));
        CHECK(f.reg("%r4", l) == umin);
        CHECK(f.reg("%r5", l) == uint32_t(smax));
        CHECK(f.reg("%r6", l) == umax);
        CHECK(f.reg("%r7", l) == band);
        CHECK(f.reg("%r8", l) == bor);
        CHECK(f.reg("%r9", l) == bxor);
    }
}

TEST_CASE("warp: bmsk clamp and wrap follow the PTX ISA's definition", "[exec][warp]") {
    WarpFixture f("bmsk.clamp.b32 %r2, %r0, %r1;\nbmsk.wrap.b32 %r3, %r0, %r1;\nbmsk.wrap.b32 %r4, 1, 2;");
    // (a, b) -> (clamp, wrap)
    const std::vector<std::array<uint32_t, 4>> cases = {
        {0, 0, 0, 0},           {0, 32, 0xFFFFFFFFu, 0},  {4, 4, 0xF0, 0xF0},       {28, 8, 0xF0000000u, 0xF0000000u},
        {31, 1, 0x80000000u, 0x80000000u}, {32, 4, 0, 0xF},  {33, 2, 0, 0x6},     {5, 40, 0xFFFFFFE0u, 0x1FE0},
        {0, 31, 0x7FFFFFFFu, 0x7FFFFFFFu},  {1, 31, 0xFFFFFFFEu, 0xFFFFFFFEu},
    };
    for (size_t i = 0; i < cases.size(); ++i) {
        f.reg("%r0", unsigned(i)) = cases[i][0];
        f.reg("%r1", unsigned(i)) = cases[i][1];
    }
    f.run((1u << cases.size()) - 1);
    for (size_t i = 0; i < cases.size(); ++i) {
        INFO("a=" << cases[i][0] << " b=" << cases[i][1]);
        CHECK(f.reg("%r2", unsigned(i)) == cases[i][2]);
        CHECK(f.reg("%r3", unsigned(i)) == cases[i][3]);
    }
    CHECK(f.reg("%r4", 0) == 6);  // the ISA's example
}

TEST_CASE("warp: nanosleep reports the longest requested sleep", "[exec][warp]") {
    WarpFixture f("nanosleep.u32 %r0;\nnanosleep.u32 250;\nactivemask.b32 %r1;");
    for (unsigned l = 0; l < 32; ++l) f.reg("%r0", l) = 10 * l;
    CHECK(f.exec(0, 0x0000FFFFu).sleep_ns == 150);
    CHECK(f.exec(1).sleep_ns == 250);
    CHECK(f.exec(2, 0x0F0F0F0Fu).sleep_ns == 0);
    CHECK(f.reg("%r1", 3) == 0x0F0F0F0Fu);
}

TEST_CASE("warp: malformed warp instructions are parse errors", "[ptx][warp]") {
    parse_fails("match.sync.b32 %r1, %r0, %r2;", "missing mode");
    parse_fails("match.ballot.sync.b32 %r1, %r0, %r2;", "match needs .any or .all");
    parse_fails("match.any.sync.b32 %r1|%p1, %r0, %r2;", "only match.all has a predicate");
    parse_fails("redux.sync.add.b32 %r1, %r0, %r2;", "redux .add/.min/.max need .u32/.s32");
    parse_fails("redux.sync.and.u32 %r1, %r0, %r2;", "redux .add/.min/.max need .u32/.s32");
    parse_fails("redux.sync.cas.b32 %r1, %r0, %r2;", "redux needs");
    parse_fails("nanosleep.u32 %r1, %r2;", "wrong number of operands");
    parse_fails("mov.u32 %r1, %envreg32;", "unsupported special register");
    parse_fails("mov.u32 %r1, %lanemask_xy;", "unsupported special register");
}

TEST_CASE("warp: constructs not modelled yet are one parse error naming the instruction", "[ptx][warp]") {
    parse_fails("wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%rd1], %r8;",
                "unsupported instruction 'wmma.load.a.sync.aligned.row.m16n16k16.global.f16'");
    parse_fails("tld4.r.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f4, %f5}];", "unsupported instruction 'tld4");
    parse_fails("suld.b.2d.v4.b32.trap {%r0, %r1, %r2, %r3}, [%rd1, {%r4, %r5}];", "unsupported instruction 'suld");
    parse_fails("txq.width.b32 %r0, [%rd1];", "unsupported instruction 'txq");
    parse_fails("tex.3d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f4, %f5, %f6, %f7}];", "only .1d and .2d");
}
