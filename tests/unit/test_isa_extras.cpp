// SPDX-License-Identifier: Apache-2.0
// Carry arithmetic (add.cc addc sub.cc subc mad.cc madc), sad, the SIMD video instructions and
// atom.cas.b16, each bit-exact against a CPU reference.
#include <algorithm>
#include <cstdlib>
#include <random>

#include "tests/unit/ptx_test_util.h"

using namespace stacksim;
using test::WarpFixture;

namespace {
using u128 = unsigned __int128;

uint64_t lane_random(std::mt19937_64& g, unsigned lane) {
    // A few lanes take the carry-propagating corner values.
    switch (lane) {
    case 0: return ~uint64_t{0};
    case 1: return 0;
    case 2: return 0xFFFFFFFFull;
    default: return g();
    }
}
}  // namespace

TEST_CASE("carry: 128-bit add and subtract in 32-bit limbs match __int128", "[exec][carry]") {
    // (r0..r3) = (r4..r7) + (r8..r11); (r12..r15) = (r4..r7) - (r8..r11), limb 0 lowest.
    WarpFixture f(
        "add.cc.u32 %r0, %r4, %r8;\n"
        "addc.cc.u32 %r1, %r5, %r9;\n"
        "addc.cc.u32 %r2, %r6, %r10;\n"
        "addc.u32 %r3, %r7, %r11;\n"
        "sub.cc.u32 %r12, %r4, %r8;\n"
        "subc.cc.u32 %r13, %r5, %r9;\n"
        "subc.cc.u32 %r14, %r6, %r10;\n"
        "subc.u32 %r15, %r7, %r11;\n");
    std::mt19937_64 g(7);
    std::array<u128, 32> a{}, b{};
    for (unsigned l = 0; l < 32; ++l) {
        a[l] = (u128(lane_random(g, l)) << 64) | lane_random(g, l);
        b[l] = (u128(lane_random(g, (l + 1) % 32)) << 64) | lane_random(g, (l + 1) % 32);
        if (l == 3) b[l] = 1;  // all-ones + 1 carries through every limb
        if (l == 3) a[l] = ~u128(0);
        for (unsigned k = 0; k < 4; ++k) {
            f.reg("%r" + std::to_string(4 + k), l) = uint32_t(a[l] >> (32 * k));
            f.reg("%r" + std::to_string(8 + k), l) = uint32_t(b[l] >> (32 * k));
        }
    }
    f.run();
    for (unsigned l = 0; l < 32; ++l) {
        u128 sum = 0, diff = 0;
        for (unsigned k = 0; k < 4; ++k) {
            sum |= u128(f.reg("%r" + std::to_string(k), l)) << (32 * k);
            diff |= u128(f.reg("%r" + std::to_string(12 + k), l)) << (32 * k);
        }
        CHECK(sum == a[l] + b[l]);
        CHECK(diff == a[l] - b[l]);
    }
}

TEST_CASE("carry: 64x64 -> 128-bit product with mad.lo.cc / madc.hi matches __int128", "[exec][carry]") {
    // a = (r1:r0), b = (r3:r2); product limbs p0..p3 in r4..r7 (the schoolbook sequence nvcc
    // emits for __umul64hi-style code).
    WarpFixture f(
        "mul.lo.u32 %r4, %r0, %r2;\n"
        "mul.hi.u32 %r5, %r0, %r2;\n"
        "mad.lo.cc.u32 %r5, %r0, %r3, %r5;\n"
        "madc.hi.u32 %r6, %r0, %r3, 0;\n"
        "mad.lo.cc.u32 %r5, %r1, %r2, %r5;\n"
        "madc.hi.cc.u32 %r6, %r1, %r2, %r6;\n"
        "madc.hi.u32 %r7, %r1, %r3, 0;\n"
        "mad.lo.cc.u32 %r6, %r1, %r3, %r6;\n"
        "addc.u32 %r7, %r7, 0;\n"
        "add.cc.u64 %rd2, %rd0, %rd1;\n"
        "addc.u64 %rd3, 0, 0;\n");
    std::mt19937_64 g(11);
    std::array<uint64_t, 32> a{}, b{};
    for (unsigned l = 0; l < 32; ++l) {
        a[l] = lane_random(g, l);
        b[l] = lane_random(g, 31 - l);
        f.reg("%r0", l) = uint32_t(a[l]);
        f.reg("%r1", l) = uint32_t(a[l] >> 32);
        f.reg("%r2", l) = uint32_t(b[l]);
        f.reg("%r3", l) = uint32_t(b[l] >> 32);
        f.reg("%rd0", l) = a[l];
        f.reg("%rd1", l) = b[l];
    }
    f.run();
    for (unsigned l = 0; l < 32; ++l) {
        u128 p = 0;
        for (unsigned k = 0; k < 4; ++k) p |= u128(f.reg("%r" + std::to_string(4 + k), l)) << (32 * k);
        CHECK(p == u128(a[l]) * b[l]);
        const u128 s = u128(a[l]) + b[l];
        CHECK(f.reg("%rd2", l) == uint64_t(s));
        CHECK(f.reg("%rd3", l) == uint64_t(s >> 64));
    }
}

TEST_CASE("carry: the flag is per thread and only .cc writes it", "[exec][carry]") {
    WarpFixture f(
        "add.cc.u32 %r0, %r4, %r5;\n"
        "add.u32 %r1, %r4, %r4;\n"     // no .cc: the flag survives
        "addc.u32 %r2, 0, 0;\n");
    for (unsigned l = 0; l < 32; ++l) {
        f.reg("%r4", l) = 0xFFFFFFFFu;
        f.reg("%r5", l) = l & 1;  // odd lanes carry
    }
    f.run();
    for (unsigned l = 0; l < 32; ++l) CHECK(f.reg("%r2", l) == (l & 1));
}

TEST_CASE("sad: c + |a - b| in the type's signedness", "[exec][video]") {
    WarpFixture f("sad.s32 %r2, %r0, %r1, %r3;\nsad.u32 %r4, %r0, %r1, %r3;\nsad.u16 %h2, %h0, %h1, 5;\n");
    std::mt19937 g(3);
    std::array<uint32_t, 32> a{}, b{}, c{};
    for (unsigned l = 0; l < 32; ++l) {
        a[l] = g();
        b[l] = l == 0 ? 0x80000000u : g();
        c[l] = g();
        f.reg("%r0", l) = a[l];
        f.reg("%r1", l) = b[l];
        f.reg("%r3", l) = c[l];
        f.reg("%h0", l) = a[l] & 0xFFFF;
        f.reg("%h1", l) = b[l] & 0xFFFF;
    }
    f.run();
    for (unsigned l = 0; l < 32; ++l) {
        const int64_t sa = int32_t(a[l]), sb = int32_t(b[l]);
        CHECK(f.reg("%r2", l) == uint32_t(c[l] + uint32_t(std::llabs(sa - sb))));
        CHECK(f.reg("%r4", l) == uint32_t(c[l] + (a[l] > b[l] ? a[l] - b[l] : b[l] - a[l])));
        const uint32_t ua = a[l] & 0xFFFF, ub = b[l] & 0xFFFF;
        CHECK(f.reg("%h2", l) == ((5 + (ua > ub ? ua - ub : ub - ua)) & 0xFFFF));
    }
}

namespace {
/// Reference of one SIMD video element operation (PTX ISA: Va/Vb sign- or zero-extended).
int64_t video_ref(const std::string& op, int64_t x, int64_t y) {
    if (op == "vadd") return x + y;
    if (op == "vsub") return x - y;
    if (op == "vavrg") return (x + y) >= 0 ? (x + y + 1) / 2 : -((-(x + y) + 1) / 2);  // rounds half up
    if (op == "vabsdiff") return x > y ? x - y : y - x;
    if (op == "vmin") return std::min(x, y);
    return std::max(x, y);
}
}  // namespace

TEST_CASE("video: vop4 and vop2 merge, saturate and accumulate per the PTX ISA", "[exec][video]") {
    const char* ops[] = {"vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax"};
    std::mt19937 g(5);
    for (const char* op : ops) {
        for (unsigned n : {4u, 2u}) {
            for (const char* types : {".u32.u32.u32", ".s32.s32.s32", ".u32.s32.u32", ".s32.u32.s32"}) {
                const std::string o = std::string(op) + std::to_string(n);
                WarpFixture f(o + types + " %r3, %r0, %r1, %r2;\n" + o + types + ".sat %r4, %r0, %r1, %r2;\n" + o +
                              types + ".add %r5, %r0, %r1, %r2;\n");
                const bool ds = types[1] == 's', as = types[5] == 's', bs = types[9] == 's';
                std::array<uint32_t, 32> a{}, b{}, c{};
                for (unsigned l = 0; l < 32; ++l) {
                    a[l] = g();
                    b[l] = l == 0 ? 0x80808080u : g();
                    c[l] = g();
                    f.reg("%r0", l) = a[l];
                    f.reg("%r1", l) = b[l];
                    f.reg("%r2", l) = c[l];
                }
                f.run();
                const unsigned bits = 32 / n;
                for (unsigned l = 0; l < 32; ++l) {
                    uint32_t merge = 0, sat = 0, acc = c[l];
                    for (unsigned i = 0; i < n; ++i) {
                        auto ext = [&](uint32_t v, bool s) {
                            int64_t e = (v >> (i * bits)) & ((1u << bits) - 1);
                            if (s && e >= (int64_t(1) << (bits - 1))) e -= int64_t(1) << bits;
                            return e;
                        };
                        const int64_t t = video_ref(op, ext(a[l], as), ext(b[l], bs));
                        const int64_t lo = ds ? -(int64_t(1) << (bits - 1)) : 0;
                        const int64_t hi = ds ? (int64_t(1) << (bits - 1)) - 1 : (int64_t(1) << bits) - 1;
                        merge |= (uint32_t(t) & ((1u << bits) - 1)) << (i * bits);
                        sat |= (uint32_t(std::clamp(t, lo, hi)) & ((1u << bits) - 1)) << (i * bits);
                        acc += uint32_t(t);
                    }
                    INFO(o << types << " lane " << l);
                    CHECK(f.reg("%r3", l) == merge);
                    CHECK(f.reg("%r4", l) == sat);
                    CHECK(f.reg("%r5", l) == acc);
                }
            }
        }
    }
}

TEST_CASE("atom.cas.b16: 16-bit CAS in lane order, the memory system sees the containing word", "[exec][atomic]") {
    WarpFixture f("atom.shared.cas.b16 %h1, [%r0], %h2, %h3;\n");
    // Lanes 0..31 all CAS the half-word at offset 6: lane l expects l and writes l + 1, so
    // every lane succeeds in lane order; the neighbouring half-word at 4 stays untouched.
    for (unsigned l = 0; l < 32; ++l) {
        f.reg("%r0", l) = 6;
        f.reg("%h2", l) = l;
        f.reg("%h3", l) = l + 1;
    }
    f.cta.shared[4] = 0xAB;
    f.cta.shared[5] = 0xCD;
    const core::ExecResult& r = f.exec(0);
    for (unsigned l = 0; l < 32; ++l) CHECK(f.reg("%h1", l) == l);
    CHECK(f.cta.shared[6] == 32);
    CHECK(f.cta.shared[7] == 0);
    CHECK(f.cta.shared[4] == 0xAB);
    CHECK(f.cta.shared[5] == 0xCD);
    CHECK(r.access_bytes == 4);
    CHECK(r.addr[5] == 4);
    // A failed compare leaves memory as it is and returns the current value.
    f.set_all("%h2", 7);
    f.exec(0, 1);
    CHECK(f.reg("%h1", 0) == 32);
    CHECK(f.cta.shared[6] == 32);
}

TEST_CASE("ISA extras: malformed uses are one-line parse errors", "[ptx][carry]") {
    CHECK_THROWS_WITH(test::parse_snippet("add.cc.f32 %f0, %f1, %f2;"), Catch::Contains("unsupported modifier .cc") || Catch::Contains(".cc needs"));
    CHECK_THROWS_WITH(test::parse_snippet("atom.shared.add.b16 %h0, [%r0], %h1;"), Catch::Contains("16-bit atomics support only .cas"));
    CHECK_THROWS_WITH(test::parse_snippet("vadd4.u32.u32.u32.add.sat %r0, %r1, %r2, %r3;"), Catch::Contains(".sat cannot be used with .add"));
    CHECK_THROWS_WITH(test::parse_snippet("bar.red.popc.pred %p0, 0, %p1;"), Catch::Contains("bar.red.popc needs .u32"));
    CHECK_NOTHROW(test::parse_snippet("bar.red.or.pred %p0, 0, !%p1;\nbar.red.popc.u32 %r0, 1, 64, %p1;"));
}
