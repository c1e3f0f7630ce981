// SPDX-License-Identifier: Apache-2.0
// Tests of the functional executor: exact integer/float semantics of single instructions,
// memory effects, guards and branch outcomes.
#include <cmath>
#include <limits>

#include "tests/unit/ptx_test_util.h"

using namespace stacksim;
using test::WarpFixture;
using test::bitsd;
using test::bitsf;
using test::dbits;
using test::fbits;

TEST_CASE("exec: integer wraparound and zero-extended storage", "[exec]") {
    WarpFixture f(
        "add.s32 %r1, %r0, 1;\n"          // INT_MAX + 1
        "sub.u32 %r2, %r3, 1;\n"          // 0 - 1
        "add.u64 %rd1, %rd0, 1;\n"        // UINT64_MAX + 1
        "neg.s32 %r4, %r5;\n"             // -INT_MIN
        "abs.s32 %r6, %r5;\n"
        "add.sat.s32 %r7, %r0, 5;\n"
        "mul.lo.s32 %r8, %r0, 2;\n"
        "add.s16 %h1, %h0, 1;\n");
    f.set_all("%r0", 0x7FFFFFFF);
    f.set_all("%rd0", ~uint64_t(0));
    f.set_all("%r5", 0x80000000u);
    f.set_all("%h0", 0xFFFF);
    f.run();
    CHECK(f.reg("%r1") == 0x80000000u);
    CHECK(f.reg("%r2") == 0xFFFFFFFFu);  // high 32 bits stay zero
    CHECK(f.reg("%rd1") == 0);
    CHECK(f.reg("%r4") == 0x80000000u);
    CHECK(f.reg("%r6") == 0x80000000u);
    CHECK(f.reg("%r7") == 0x7FFFFFFFu);
    CHECK(f.reg("%r8", 31) == 0xFFFFFFFEu);
    CHECK(f.reg("%h1") == 0);
}

TEST_CASE("exec: widening and high multiplies", "[exec]") {
    WarpFixture f(
        "mul.wide.s32 %rd1, %r0, %r1;\n"  // -3 * 5
        "mul.wide.u32 %rd2, %r2, 2;\n"    // 0xFFFFFFFF * 2
        "mul.hi.s32 %r3, %r4, 2;\n"       // INT_MIN * 2 -> hi = -1
        "mul.hi.u32 %r5, %r2, %r2;\n"
        "mad.lo.s32 %r6, %r0, %r1, 100;\n"
        "mad.wide.s32 %rd3, %r0, %r1, %rd0;\n"
        "mul.hi.s64 %rd4, %rd5, 3;\n"
        "mul.hi.u64 %rd6, %rd7, %rd7;\n"
        "mul.wide.s16 %r7, %h0, %h0;\n"
        "mad.hi.u32 %r8, %r2, %r2, 1;\n");
    f.set_all("%r0", uint32_t(-3));
    f.set_all("%r1", 5);
    f.set_all("%r2", 0xFFFFFFFFu);
    f.set_all("%r4", 0x80000000u);
    f.set_all("%rd0", 1000);
    f.set_all("%rd5", uint64_t(-1));  // -1 * 3 -> hi = -1
    f.set_all("%rd7", ~uint64_t(0));
    f.set_all("%h0", 0x8000);  // -32768^2 = 2^30
    f.run();
    CHECK(f.reg("%rd1") == uint64_t(-15));
    CHECK(f.reg("%rd2") == 0x1FFFFFFFEull);
    CHECK(f.reg("%r3") == 0xFFFFFFFFu);
    CHECK(f.reg("%r5") == 0xFFFFFFFEu);
    CHECK(f.reg("%r6") == 85);
    CHECK(f.reg("%rd3") == 985);
    CHECK(f.reg("%rd4") == ~uint64_t(0));
    CHECK(f.reg("%rd6") == 0xFFFFFFFFFFFFFFFEull);
    CHECK(f.reg("%r7") == 0x40000000u);
    CHECK(f.reg("%r8") == 0xFFFFFFFFu);
}

TEST_CASE("exec: division and remainder truncate toward zero", "[exec]") {
    WarpFixture f(
        "div.s32 %r2, %r0, %r1;\n"
        "rem.s32 %r3, %r0, %r1;\n"
        "div.s32 %r4, %r5, %r6;\n"
        "rem.s32 %r7, %r5, %r6;\n"
        "div.u32 %r8, %r0, %r1;\n"
        "div.s32 %r9, %r10, %r11;\n"      // INT_MIN / -1
        "div.u32 %r12, %r0, 0;\n"         // by zero: no trap
        "rem.s64 %rd1, %rd2, 3;\n");
    f.set_all("%r0", uint32_t(-7));
    f.set_all("%r1", 2);
    f.set_all("%r5", 7);
    f.set_all("%r6", uint32_t(-2));
    f.set_all("%r10", 0x80000000u);
    f.set_all("%r11", uint32_t(-1));
    f.set_all("%rd2", uint64_t(-10));
    f.run();
    CHECK(int32_t(f.reg("%r2")) == -3);
    CHECK(int32_t(f.reg("%r3")) == -1);
    CHECK(int32_t(f.reg("%r4")) == -3);
    CHECK(int32_t(f.reg("%r7")) == 1);
    CHECK(f.reg("%r8") == 0x7FFFFFFCu);
    CHECK(f.reg("%r9") == 0x80000000u);
    CHECK(f.reg("%r12") == 0xFFFFFFFFu);
    CHECK(int64_t(f.reg("%rd1")) == -1);
}

TEST_CASE("exec: shifts and bit operations", "[exec]") {
    WarpFixture f(
        "shr.s32 %r1, %r0, 4;\n"
        "shr.u32 %r2, %r0, 4;\n"
        "shr.b32 %r3, %r0, 4;\n"
        "shl.b32 %r4, %r0, 40;\n"
        "shr.s32 %r5, %r0, 99;\n"
        "popc.b32 %r6, %r0;\n"
        "clz.b32 %r7, %r8;\n"
        "brev.b32 %r9, %r8;\n"
        "bfe.s32 %r10, %r0, 4, 8;\n"
        "bfe.u32 %r11, %r0, 4, 8;\n"
        "bfi.b32 %r12, %r8, %r0, 8, 4;\n"
        "shf.l.wrap.b32 %r13, %r8, %r0, 4;\n"
        "prmt.b32 %r14, %r0, %r8, 0x3210;\n"
        "not.b32 %r15, %r8;\n");
    f.set_all("%r0", 0xF0000F00u);
    f.set_all("%r8", 0x00000001u);
    f.run();
    CHECK(f.reg("%r1") == 0xFF0000F0u);
    CHECK(f.reg("%r2") == 0x0F0000F0u);
    CHECK(f.reg("%r3") == 0x0F0000F0u);
    CHECK(f.reg("%r4") == 0);
    CHECK(f.reg("%r5") == 0xFFFFFFFFu);
    CHECK(f.reg("%r6") == 8);
    CHECK(f.reg("%r7") == 31);
    CHECK(f.reg("%r9") == 0x80000000u);
    CHECK(f.reg("%r10") == 0xFFFFFFF0u);  // bits 11..4 = 0xF0, sign-extended
    CHECK(f.reg("%r11") == 0xF0u);
    CHECK(f.reg("%r12") == 0xF0000100u);
    CHECK(f.reg("%r13") == 0x0000F000u);  // high word of (0xF0000F00:0x00000001) << 4
    CHECK(f.reg("%r14") == 0xF0000F00u);
    CHECK(f.reg("%r15") == 0xFFFFFFFEu);
}

TEST_CASE("exec: setp with NaN, combine and dual destination, selp", "[exec]") {
    WarpFixture f(
        "setp.lt.f32 %p1, %f0, %f1;\n"
        "setp.ltu.f32 %p2, %f0, %f1;\n"
        "setp.ne.f32 %p3, %f0, %f1;\n"
        "setp.neu.f32 %p4, %f0, %f1;\n"
        "setp.nan.f32 %p5, %f0, %f1;\n"
        "setp.num.f32 %p6, %f2, %f1;\n"
        "selp.b32 %r1, 11, 22, %p2;\n"
        "selp.f32 %f3, %f1, %f2, %p1;\n"
        "setp.lt.s32 %p0|%p7, %r0, 0;\n"
        "setp.lo.u32 %p1, %r0, 5;\n"
        "setp.gt.and.s32 %p2, %r2, 0, !%p0;\n");
    f.set_all("%f0", fbits(std::numeric_limits<float>::quiet_NaN()));
    f.set_all("%f1", fbits(1.0f));
    f.set_all("%f2", fbits(2.0f));
    f.set_all("%r0", uint32_t(-1));
    f.set_all("%r2", 3);
    f.run();
    CHECK(f.reg("%p3") == 0);
    CHECK(f.reg("%p4") == 1);
    CHECK(f.reg("%p5") == 1);
    CHECK(f.reg("%p6") == 1);
    CHECK(f.reg("%r1") == 11);                // ltu true with NaN
    CHECK(bitsf(f.reg("%f3")) == 2.0f);       // lt false with NaN
    CHECK(f.reg("%p0") == 1);                 // -1 < 0 signed
    CHECK(f.reg("%p7") == 0);
    CHECK(f.reg("%p1") == 0);                 // 0xFFFFFFFF < 5 unsigned: false
    CHECK(f.reg("%p2") == 0);                 // (3 > 0) and !true
}

TEST_CASE("exec: cvt rounding, saturation and extension", "[exec]") {
    WarpFixture f(
        "cvt.rzi.s32.f32 %r0, %f0;\n"
        "cvt.rni.s32.f32 %r1, %f0;\n"
        "cvt.rmi.s32.f32 %r2, %f0;\n"
        "cvt.rpi.s32.f32 %r3, %f0;\n"
        "cvt.rzi.s32.f32 %r4, %f1;\n"     // NaN -> 0
        "cvt.rzi.s32.f32 %r5, %f2;\n"     // 1e10 -> INT_MAX
        "cvt.rzi.s32.f32 %r6, %f3;\n"     // -1e10 -> INT_MIN
        "cvt.rzi.u32.f32 %r7, %f4;\n"     // -2.5 -> 0
        "cvt.s64.s32 %rd0, %r8;\n"
        "cvt.u64.u32 %rd1, %r8;\n"
        "cvt.u32.u64 %r9, %rd2;\n"
        "cvt.sat.s8.s32 %r10, %r11;\n"
        "cvt.s8.s32 %r12, %r11;\n"
        "cvt.rn.f32.s32 %f5, %r8;\n"
        "cvt.f64.f32 %fd0, %f4;\n"
        "cvt.rn.f32.f64 %f6, %fd1;\n"
        "cvt.rz.f32.f64 %f7, %fd1;\n"
        "cvt.rni.f32.f32 %f8, %f9;\n"
        "cvt.rzi.s64.f64 %rd3, %fd2;\n"
        "cvt.rn.f64.u64 %fd3, %rd4;\n");
    f.set_all("%f0", fbits(-2.5f));
    f.set_all("%f1", fbits(std::nanf("")));
    f.set_all("%f2", fbits(1e10f));
    f.set_all("%f3", fbits(-1e10f));
    f.set_all("%f4", fbits(-2.5f));
    f.set_all("%r8", uint32_t(-5));
    f.set_all("%rd2", 0x123456789ull);
    f.set_all("%r11", 300);
    f.set_all("%fd1", dbits(1.0 / 3.0));
    f.set_all("%f9", fbits(3.5f));
    f.set_all("%fd2", dbits(1e300));
    f.set_all("%rd4", ~uint64_t(0));
    f.run();
    CHECK(int32_t(f.reg("%r0")) == -2);
    CHECK(int32_t(f.reg("%r1")) == -2);  // ties to even
    CHECK(int32_t(f.reg("%r2")) == -3);
    CHECK(int32_t(f.reg("%r3")) == -2);
    CHECK(f.reg("%r4") == 0);
    CHECK(f.reg("%r5") == 0x7FFFFFFFu);
    CHECK(f.reg("%r6") == 0x80000000u);
    CHECK(f.reg("%r7") == 0);
    CHECK(f.reg("%rd0") == uint64_t(-5));
    CHECK(f.reg("%rd1") == 0xFFFFFFFBull);
    CHECK(f.reg("%r9") == 0x23456789u);
    CHECK(f.reg("%r10") == 127);
    CHECK(f.reg("%r12") == 0x2C);  // 300 & 0xFF, stored zero-extended
    CHECK(bitsf(f.reg("%f5")) == -5.0f);
    CHECK(bitsd(f.reg("%fd0")) == -2.5);
    CHECK(bitsf(f.reg("%f6")) == 1.0f / 3.0f);
    CHECK(bitsf(f.reg("%f7")) < float(1.0 / 3.0));  // toward zero is below the nearest here
    CHECK(bitsf(f.reg("%f8")) == 4.0f);
    CHECK(f.reg("%rd3") == 0x7FFFFFFFFFFFFFFFull);
    CHECK(bitsd(f.reg("%fd3")) == 18446744073709551616.0);
}

TEST_CASE("exec: float arithmetic and special functions", "[exec]") {
    WarpFixture f(
        "add.f32 %f2, %f0, %f1;\n"
        "fma.rn.f32 %f3, %f0, %f1, %f0;\n"
        "div.rn.f32 %f4, %f0, %f1;\n"
        "sqrt.rn.f32 %f5, %f1;\n"
        "min.f32 %f6, %f7, %f0;\n"        // NaN operand: returns the other
        "neg.f32 %f8, %f0;\n"
        "abs.f32 %f9, %f8;\n"
        "rcp.rn.f32 %f10, %f1;\n"
        "ex2.approx.f32 %f11, %f1;\n"
        "lg2.approx.f32 %f12, %f1;\n"
        "rsqrt.approx.f32 %f13, %f1;\n"
        "div.rn.f64 %fd1, %fd0, 0d4008000000000000;\n"
        "add.rp.f32 %f14, %f0, %f15;\n"
        "mul.sat.f32 %f15, %f0, %f1;\n");
    f.set_all("%f0", fbits(1.5f));
    f.set_all("%f1", fbits(4.0f));
    f.set_all("%f7", fbits(std::nanf("")));
    f.set_all("%f15", fbits(1e-8f));
    f.set_all("%fd0", dbits(1.0));
    f.run();
    CHECK(bitsf(f.reg("%f2")) == 5.5f);
    CHECK(bitsf(f.reg("%f3")) == 7.5f);
    CHECK(bitsf(f.reg("%f4")) == 0.375f);
    CHECK(bitsf(f.reg("%f5")) == 2.0f);
    CHECK(bitsf(f.reg("%f6")) == 1.5f);
    CHECK(bitsf(f.reg("%f8")) == -1.5f);
    CHECK(bitsf(f.reg("%f9")) == 1.5f);
    CHECK(bitsf(f.reg("%f10")) == 0.25f);
    CHECK(bitsf(f.reg("%f11")) == 16.0f);
    CHECK(bitsf(f.reg("%f12")) == 2.0f);
    CHECK(bitsf(f.reg("%f13")) == 0.5f);
    CHECK(bitsd(f.reg("%fd1")) == 1.0 / 3.0);
    CHECK(bitsf(f.reg("%f14")) == std::nextafter(1.5f, 2.0f));  // 1.5 + 1e-8 rounded up
    CHECK(bitsf(f.reg("%f15")) == 1.0f);  // 6.0 saturated
}

TEST_CASE("exec: guard predicate masks lanes, branch taken mask, exit", "[exec]") {
    WarpFixture f(
        "setp.lt.u32 %p1, %r0, 8;\n"
        "@%p1 add.s32 %r1, %r1, 100;\n"
        "@!%p1 add.s32 %r1, %r1, 7;\n"
        "@%p1 bra L1;\n"
        "bra.uni L1;\n"
        "L1: @!%p1 exit;\n"
        "ret;\n");
    for (unsigned l = 0; l < 32; ++l) f.reg("%r0", l) = l;
    f.exec(0);
    CHECK(f.exec(1, 0x0000FFFFu).active_mask == 0x000000FFu);
    f.exec(2, 0x0000FFFFu);
    CHECK(f.reg("%r1", 3) == 100);
    CHECK(f.reg("%r1", 12) == 7);
    CHECK(f.reg("%r1", 20) == 0);  // inactive lane untouched
    const core::ExecResult& b = f.exec(3, 0xFFFF00F0u);
    CHECK(b.active_mask == 0x000000F0u);
    CHECK(b.taken_mask == 0x000000F0u);
    CHECK(f.kernel.code[3].target == 5);
    CHECK(f.exec(4, 0x00FF0000u).taken_mask == 0x00FF0000u);
    const core::ExecResult& e = f.exec(5);
    CHECK(e.active_mask == 0xFFFFFF00u);
    CHECK(f.kernel.code[5].control() == core::ControlKind::Exit);
    CHECK(f.exec(6, 0xFFu).active_mask == 0xFFu);
}

TEST_CASE("exec: vector global and shared ld/st round trip with addresses", "[exec]") {
    WarpFixture f(
        "ld.param.u64 %rd0, [p0];\n"
        "mul.wide.u32 %rd1, %r9, 16;\n"
        "add.s64 %rd2, %rd0, %rd1;\n"
        "ld.global.v4.f32 {%f0, %f1, %f2, %f3}, [%rd2];\n"
        "st.global.v4.f32 [%rd2+512], {%f3, %f2, %f1, %f0};\n"
        "shl.b32 %r1, %r9, 3;\n"
        "st.shared.v2.u32 [%r1], {%r9, %r9};\n"
        "ld.shared.v2.u32 {%r2, _}, [%r1];\n"
        "mov.u64 %rd3, sh;\n"
        "cvta.shared.u64 %rd4, %rd3;\n"
        "ld.u32 %r3, [%rd4+8];\n"
        "ld.u32 %r4, [%rd2];\n");
    const uint64_t base = 0x10000;
    std::memcpy(f.params.data(), &base, 8);
    for (unsigned i = 0; i < 128; ++i) f.mem.store<float>(base + 4 * i, float(i));
    for (unsigned l = 0; l < 32; ++l) f.reg("%r9", l) = l;
    f.run();
    CHECK(f.res.is_load);
    CHECK(f.mem.load<float>(base + 512 + 16 * 5) == 23.0f);
    CHECK(f.mem.load<float>(base + 512 + 16 * 5 + 12) == 20.0f);
    CHECK(f.reg("%r2", 7) == 7);
    CHECK(f.reg("%r3", 0) == 1);  // generic address inside the shared window
    CHECK(f.reg("%rd4") == core::kSharedWindowBase);

    // ExecResult of the individual accesses.
    core::ExecResult& ld = f.exec(3);
    CHECK(ld.space == core::StateSpace::Global);
    CHECK(ld.is_load);
    CHECK(ld.access_bytes == 16);
    CHECK(ld.addr[2] == base + 32);
    core::ExecResult& st = f.exec(6, 0x3u);
    CHECK(st.space == core::StateSpace::Shared);
    CHECK(st.is_store);
    CHECK(st.access_bytes == 8);
    CHECK(st.addr[1] == 8);
    CHECK(f.exec(10).space == core::StateSpace::Shared);  // generic resolved
    CHECK(f.exec(11).space == core::StateSpace::Global);
    core::ExecResult& p = f.exec(0);
    CHECK(!p.is_load);
    CHECK(p.space == core::StateSpace::None);
}

TEST_CASE("exec: loads extend by type and destination width", "[exec]") {
    WarpFixture f(
        "ld.global.s32 %rd1, [%rd0];\n"
        "ld.global.u32 %rd2, [%rd0];\n"
        "ld.global.s8 %r1, [%rd0];\n"
        "ld.global.u8 %r2, [%rd0];\n"
        "ld.global.s16 %h1, [%rd0];\n");
    f.set_all("%rd0", 0x2000);
    f.mem.store<uint32_t>(0x2000, 0xFFFFFF80u);
    f.run();
    CHECK(f.reg("%rd1") == 0xFFFFFFFFFFFFFF80ull);
    CHECK(f.reg("%rd2") == 0xFFFFFF80ull);
    CHECK(f.reg("%r1") == 0xFFFFFF80ull);
    CHECK(f.reg("%r2") == 0x80);
    CHECK(f.reg("%h1") == 0xFF80);
}

TEST_CASE("exec: atomics run in lane order", "[exec]") {
    WarpFixture f(
        "atom.global.add.u32 %r1, [%rd0], 1;\n"
        "atom.global.cas.b32 %r2, [%rd0+4], 0, %r9;\n"
        "atom.shared.max.s32 %r3, [sh], %r8;\n"
        "atom.global.inc.u32 %r4, [%rd0+8], 2;\n"
        "atom.global.exch.b32 %r5, [%rd0+12], %r9;\n"
        "atom.global.add.f32 %f1, [%rd0+16], 0f3FC00000;\n"
        "red.global.add.u64 [%rd0+24], %rd1;\n"
        "atom.add.u32 %r6, [%rd2], 2;\n");
    f.set_all("%rd0", 0x4000);
    f.set_all("%rd1", 3);
    f.set_all("%rd2", core::kSharedWindowBase + 64);
    for (unsigned l = 0; l < 32; ++l) {
        f.reg("%r9", l) = l + 1;
        f.reg("%r8", l) = uint32_t(int32_t(l) - 16);
    }
    f.run();
    for (unsigned l = 0; l < 32; ++l) CHECK(f.reg("%r1", l) == l);
    CHECK(f.mem.load<uint32_t>(0x4000) == 32);
    CHECK(f.reg("%r2", 0) == 0);  // lane 0 swaps 0 -> 1, the others see 1
    CHECK(f.reg("%r2", 5) == 1);
    CHECK(f.mem.load<uint32_t>(0x4004) == 1);
    uint32_t smax;
    std::memcpy(&smax, f.cta.shared.data(), 4);
    CHECK(smax == 15);
    CHECK(f.reg("%r4", 3) == 0);  // 0,1,2,0,1,2,...
    CHECK(f.reg("%r4", 4) == 1);
    CHECK(f.mem.load<uint32_t>(0x4008) == 32 % 3);
    CHECK(f.reg("%r5", 0) == 0);
    CHECK(f.reg("%r5", 31) == 31);
    CHECK(f.mem.load<float>(0x4010) == 48.0f);
    CHECK(f.mem.load<uint64_t>(0x4018) == 96);
    CHECK(f.reg("%r6", 31) == 62);
    core::ExecResult& r = f.exec(0);
    CHECK(r.is_atomic);
    CHECK(r.space == core::StateSpace::Global);
    CHECK(r.access_bytes == 4);
    CHECK(f.exec(7).space == core::StateSpace::Shared);
}

TEST_CASE("exec: special registers, shfl and vote", "[exec]") {
    WarpFixture f(
        "mov.u32 %r0, %tid.x;\n"
        "mov.u32 %r1, %ntid.x;\n"
        "mov.u32 %r2, %laneid;\n"
        "mov.u32 %r3, %warpid;\n"
        "mov.u64 %rd0, %clock64;\n"
        "shfl.sync.down.b32 %r4|%p1, %r0, 1, 31, -1;\n"
        "shfl.sync.bfly.b32 %r5, %r0, 3, 31, -1;\n"
        "shfl.sync.idx.b32 %r6, %r0, 7, 31, -1;\n"
        "shfl.sync.up.b32 %r7, %r0, 2, 0, -1;\n"
        "setp.lt.u32 %p2, %r0, 4;\n"
        "vote.sync.ballot.b32 %r8, %p2, -1;\n"
        "vote.sync.any.pred %p3, %p2, -1;\n"
        "vote.sync.all.pred %p4, %p2, -1;\n"
        "activemask.b32 %r10;\n");
    f.cta.ntid = {64, 1, 1};
    f.warp.warp_in_cta = 1;
    f.warp.clock = 12345;
    for (unsigned l = 0; l < 32; ++l) f.warp.tid_x[l] = 32 + l;
    f.run();
    CHECK(f.reg("%r0", 3) == 35);
    CHECK(f.reg("%r1", 3) == 64);
    CHECK(f.reg("%r2", 3) == 3);
    CHECK(f.reg("%r3", 3) == 1);
    CHECK(f.reg("%rd0", 3) == 12345);
    CHECK(f.reg("%r4", 3) == 36);
    CHECK(f.reg("%r4", 31) == 63);  // out of range: own value
    CHECK(f.reg("%p1", 31) == 0);
    CHECK(f.reg("%p1", 30) == 1);
    CHECK(f.reg("%r5", 1) == 34);
    CHECK(f.reg("%r6", 20) == 39);
    CHECK(f.reg("%r7", 5) == 35);
    CHECK(f.reg("%r7", 1) == 33);
    CHECK(f.reg("%r8", 9) == 0);  // tid >= 32 everywhere
    CHECK(f.reg("%p3", 0) == 0);
    CHECK(f.reg("%r10", 0) == 0xFFFFFFFFu);
}

TEST_CASE("exec: run-time faults raise ExecError naming file and line", "[exec]") {
    WarpFixture f(
        "ld.shared.u32 %r1, [%r0];\n"
        "ld.global.u32 %r2, [%rd0];\n"
        "ld.global.v2.u32 {%r3, %r4}, [%rd1];\n");
    f.set_all("%r0", 4096);
    f.set_all("%rd0", 0x1002);
    f.set_all("%rd1", 0x1004);
    const std::string line = "t.ptx:" + std::to_string(test::kSnippetFirstLine);
    CHECK_THROWS_WITH(f.exec(0), Catch::Contains(line) && Catch::Contains("out of bounds"));
    CHECK_THROWS_WITH(f.exec(1), Catch::Contains("t.ptx:" + std::to_string(test::kSnippetFirstLine + 1)) &&
                                     Catch::Contains("misaligned"));
    CHECK_THROWS_AS(f.exec(2), core::ExecError);
    CHECK_NOTHROW(f.exec(0, 0));  // no active lane, no fault
}

TEST_CASE("exec: mov pack/unpack, set, bfind, cvta, predicates logic", "[exec]") {
    WarpFixture f(
        "mov.b64 {%r1, %r2}, %fd0;\n"
        "mov.b64 %rd1, {%r2, %r1};\n"
        "mov.b32 %f1, %r3;\n"
        "set.lt.u32.s32 %r4, %r5, 0;\n"
        "set.gt.f32.f32 %r6, %f1, 0f00000000;\n"
        "bfind.u32 %r7, %r3;\n"
        "bfind.shiftamt.u32 %r8, %r3;\n"
        "bfind.s32 %r9, %r5;\n"
        "cvta.to.shared.u64 %rd2, %rd3;\n"
        "setp.eq.s32 %p1, %r5, -1;\n"
        "not.pred %p2, %p1;\n"
        "or.pred %p3, %p1, %p2;\n"
        "xor.pred %p4, %p3, %p1;\n"
        "mov.pred %p5, 1;\n"
        "bar.warp.sync -1;\n"
        "cnot.b32 %r10, %r5;\n");
    f.set_all("%fd0", 0x1122334455667788ull);
    f.set_all("%r3", 0x3F800000u);
    f.set_all("%r5", uint32_t(-1));
    f.set_all("%rd3", core::kSharedWindowBase + 40);
    f.run();
    CHECK(f.reg("%r1") == 0x55667788u);
    CHECK(f.reg("%r2") == 0x11223344u);
    CHECK(f.reg("%rd1") == 0x5566778811223344ull);
    CHECK(bitsf(f.reg("%f1")) == 1.0f);
    CHECK(f.reg("%r4") == 0xFFFFFFFFu);
    CHECK(bitsf(f.reg("%r6")) == 1.0f);
    CHECK(f.reg("%r7") == 29);
    CHECK(f.reg("%r8") == 2);
    CHECK(f.reg("%r9") == 0xFFFFFFFFu);
    CHECK(f.reg("%rd2") == 40);
    CHECK(f.reg("%p2") == 0);
    CHECK(f.reg("%p3") == 1);
    CHECK(f.reg("%p4") == 0);
    CHECK(f.reg("%p5") == 1);
    CHECK(f.reg("%r10") == 0);
    CHECK(f.kernel.code[14].control() == core::ControlKind::None);
    CHECK(f.kernel.code[8].unit() == core::UnitClass::Alu);
}
