// SPDX-License-Identifier: Apache-2.0
// Half precision: the software reference (core/half_float.h) checked exhaustively against the
// CPU's F16C conversions, and the f16/f16x2/bf16/bf16x2 instructions through the executor.
#include <cpuid.h>
#include <immintrin.h>

#include <cfenv>
#include <cmath>
#include <random>

#include "core/half_float.h"
#include "tests/unit/ptx_test_util.h"

using namespace stacksim;
using core::HalfKind;
using core::RoundMode;
using test::WarpFixture;

namespace {

// CPUID leaf 1, ECX bit 29 (F16C); clang 14's __builtin_cpu_supports does not know "f16c".
bool have_f16c() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    return __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 29)) != 0;
}

/// The CPU's f32 -> f16 conversion in rounding mode 0 nearest, 1 down, 2 up, 3 toward zero.
__attribute__((target("f16c"))) uint16_t f16c_from_float(float f, int mode) {
    const __m128 v = _mm_set_ss(f);
    __m128i r;
    switch (mode) {
    case 0: r = _mm_cvtps_ph(v, 0); break;
    case 1: r = _mm_cvtps_ph(v, 1); break;
    case 2: r = _mm_cvtps_ph(v, 2); break;
    default: r = _mm_cvtps_ph(v, 3); break;
    }
    return uint16_t(_mm_extract_epi16(r, 0));
}
__attribute__((target("f16c"))) float f16c_to_float(uint16_t h) {
    return _mm_cvtss_f32(_mm_cvtph_ps(_mm_cvtsi32_si128(h)));
}

constexpr RoundMode kModes[] = {RoundMode::Rn, RoundMode::Rm, RoundMode::Rp, RoundMode::Rz};
constexpr const char* kModeNames[] = {"rn", "rm", "rp", "rz"};

/// S * 2^-48 rounded to f32 with round-to-odd (exact when S has at most 24 significant bits),
/// so that a second rounding to f16 is correct: an independent path to the exact f16 result.
float scaled_to_float_odd(__int128 s) {
    if (s == 0) return 0.0f;
    const bool neg = s < 0;
    unsigned __int128 m = neg ? (unsigned __int128)(-s) : (unsigned __int128)s;
    int n = 0;
    for (unsigned __int128 x = m; x; x >>= 1) ++n;
    uint32_t top;
    int shift = n > 24 ? n - 24 : 0;
    top = uint32_t(m >> shift);
    if (shift && (m & ((((unsigned __int128)1) << shift) - 1))) top |= 1;
    const float f = std::ldexp(float(top), shift - 48);
    return neg ? -f : f;
}

/// 2^24: scales a multiple of 2^-24 to one of 2^-48 (a multiplication: a left shift of a
/// negative value is undefined).
constexpr __int128 kTwo24 = __int128(1) << 24;

/// The f16 value of `h` as an integer multiple of 2^-24.
__int128 f16_scaled24(uint16_t h) {
    const int e = (h >> 10) & 0x1F, frac = h & 0x3FF;
    __int128 m = e == 0 ? frac : (frac | 0x400);
    m <<= (e == 0 ? 0 : e - 1);
    return (h & 0x8000) ? -m : m;
}

bool f16_finite(uint16_t h) { return (h & 0x7C00) != 0x7C00; }

uint32_t fbits(float f) { return uint32_t(test::fbits(f)); }

}  // namespace

TEST_CASE("half: decoding all 65536 f16 patterns matches F16C and bf16 is the top of an f32", "[half]") {
    for (uint32_t h = 0; h < 0x10000; ++h) {
        const double v = core::half_to_double(uint16_t(h), HalfKind::F16);
        const double b = core::half_to_double(uint16_t(h), HalfKind::BF16);
        const float bf = test::bitsf(h << 16);
        INFO("pattern " << h);
        REQUIRE(core::half_is_nan(uint16_t(h), HalfKind::BF16) == std::isnan(bf));
        if (!std::isnan(bf)) REQUIRE(b == double(bf));
        if (have_f16c()) {
            const float f = f16c_to_float(uint16_t(h));
            REQUIRE(std::isnan(v) == std::isnan(f));
            if (!std::isnan(f)) REQUIRE(v == double(f));
        }
        // Every finite value converts back to itself in every mode.
        if (!std::isnan(v))
            for (RoundMode m : kModes) REQUIRE(core::half_from_double(v, HalfKind::F16, m) == h);
    }
}

TEST_CASE("half: cvt.f16.f32 in the four rounding modes matches F16C on every f16 neighbourhood and random floats", "[half]") {
    if (!have_f16c()) {
        WARN("no F16C on this CPU: the hardware cross-check is skipped");
        return;
    }
    WarpFixture fx("cvt.rn.f16.f32 %h0, %f0;\ncvt.rm.f16.f32 %h1, %f0;\ncvt.rp.f16.f32 %h2, %f0;\n"
                   "cvt.rz.f16.f32 %h3, %f0;");
    std::vector<float> xs;
    // Around every f16 value: the value, its neighbours in f32, and the midpoints to the next.
    for (uint32_t h = 0; h < 0x7C00; ++h) {
        const float v = f16c_to_float(uint16_t(h)), next = f16c_to_float(uint16_t(h + 1));
        const float mid = float((double(v) + double(next)) / 2);
        for (float x : {v, std::nextafter(v, 1e9f), std::nextafter(v, -1e9f), mid, std::nextafter(mid, 1e9f),
                        std::nextafter(mid, -1e9f)})
            xs.push_back(x), xs.push_back(-x);
    }
    std::mt19937 rng(12345);
    for (int i = 0; i < 200000; ++i) xs.push_back(test::bitsf(rng()));
    for (float x : {INFINITY, -INFINITY, NAN, 65520.0f, 65519.99f, 1e-8f, 2.98e-8f, 2.99e-8f, 1e30f})
        xs.push_back(x), xs.push_back(-x);
    size_t checked = 0;
    for (size_t i = 0; i < xs.size(); i += 32) {
        uint32_t mask = 0;
        for (unsigned l = 0; l < 32 && i + l < xs.size(); ++l) {
            fx.reg("%f0", l) = fbits(xs[i + l]);
            mask |= 1u << l;
        }
        fx.run(mask);
        for (unsigned l = 0; l < 32 && i + l < xs.size(); ++l) {
            const float x = xs[i + l];
            for (int m = 0; m < 4; ++m) {
                const int hw_mode = m == 0 ? 0 : m == 1 ? 1 : m == 2 ? 2 : 3;
                uint16_t want = f16c_from_float(x, hw_mode);
                if (std::isnan(x)) want = core::kHalfCanonicalNaN;
                INFO("x = " << x << " (0x" << std::hex << fbits(x) << ") mode " << kModeNames[m]);
                REQUIRE(fx.reg("%h" + std::to_string(m), l) == want);
                ++checked;
            }
        }
    }
    CHECK(checked > 1'000'000);
}

TEST_CASE("half: f16 add sub mul and fma are correctly rounded in every mode", "[half]") {
    if (!have_f16c()) {
        WARN("no F16C on this CPU: the hardware cross-check is skipped");
        return;
    }
    std::string body;
    for (int m = 0; m < 4; ++m) {
        const std::string r = kModeNames[m];
        body += "add." + r + ".f16 %h" + std::to_string(m) + ", %h4, %h5;\n";
    }
    body += "sub.rn.f16 %h6, %h4, %h5;\nmul.rn.f16 %h7, %h4, %h5;\n";
    body += "fma.rn.f16 %r0, %h4, %h5, %r8;\nfma.rz.f16 %r1, %h4, %h5, %r8;\nmul.rm.f16 %r2, %h4, %h5;\n"
            "fma.rp.f16 %r3, %h4, %h5, %r8;\n";
    WarpFixture fx(body);
    std::mt19937 rng(777);
    auto pick = [&]() -> uint16_t {
        // Mostly finite operands, biased towards close exponents so sums cancel and round.
        uint16_t h = uint16_t(rng());
        if ((rng() & 3) == 0) h = uint16_t((h & 0x83FF) | ((10 + rng() % 12) << 10));
        return h;
    };
    size_t checked = 0;
    for (int iter = 0; iter < 6000; ++iter) {
        uint16_t a[32], b[32], c[32];
        for (unsigned l = 0; l < 32; ++l) {
            a[l] = pick(), b[l] = pick(), c[l] = pick();
            fx.reg("%h4", l) = a[l];
            fx.reg("%h5", l) = b[l];
            fx.reg("%r8", l) = c[l];
        }
        fx.run();
        for (unsigned l = 0; l < 32; ++l) {
            if (!f16_finite(a[l]) || !f16_finite(b[l]) || !f16_finite(c[l])) continue;
            const __int128 A = f16_scaled24(a[l]), B = f16_scaled24(b[l]), C = f16_scaled24(c[l]);
            const bool sa = a[l] >> 15, sb = b[l] >> 15, sc = c[l] >> 15, sp = sa != sb;
            // IEEE signs of exact zeros: a product takes the xor of the signs; a sum of two
            // zeros of one sign keeps it; any other exact zero sum is -0 rounding down, else +0.
            auto sum_zero = [](bool x_zero, bool x_neg, bool y_zero, bool y_neg, int mode) {
                if (x_zero && y_zero && x_neg == y_neg) return x_neg ? -0.0f : 0.0f;
                return mode == 1 ? -0.0f : 0.0f;
            };
            auto val = [](__int128 s, float zero) { return s == 0 ? zero : scaled_to_float_odd(s); };
            const bool za = A == 0, zb = B == 0, zc = C == 0, zp = za || zb;
            auto sum = [&](int m) { return val((A + B) * kTwo24, sum_zero(za, sa, zb, sb, m)); };
            const float dif = val((A - B) * kTwo24, sum_zero(za, sa, zb, !sb, 0));
            const float prod = val(A * B, sp ? -0.0f : 0.0f);
            auto fma = [&](int m) { return val(A * B + C * kTwo24, sum_zero(zp, sp, zc, sc, m)); };
            INFO("a=0x" << std::hex << a[l] << " b=0x" << b[l] << " c=0x" << c[l]);
            for (int m = 0; m < 4; ++m) REQUIRE(fx.reg("%h" + std::to_string(m), l) == f16c_from_float(sum(m), m));
            REQUIRE(fx.reg("%h6", l) == f16c_from_float(dif, 0));
            REQUIRE(fx.reg("%h7", l) == f16c_from_float(prod, 0));
            REQUIRE(fx.reg("%r0", l) == f16c_from_float(fma(0), 0));
            REQUIRE(fx.reg("%r1", l) == f16c_from_float(fma(3), 3));
            REQUIRE(fx.reg("%r2", l) == f16c_from_float(prod, 1));
            REQUIRE(fx.reg("%r3", l) == f16c_from_float(fma(2), 2));
            checked += 10;
        }
    }
    CHECK(checked > 1'500'000);
}

TEST_CASE("half: bf16 conversions and arithmetic round like f32 -> bf16 truncation says", "[half]") {
    WarpFixture fx("cvt.rn.bf16.f32 %h0, %f0;\ncvt.rz.bf16.f32 %h1, %f0;\ncvt.rm.bf16.f32 %h2, %f0;\n"
                   "cvt.rp.bf16.f32 %h3, %f0;\ncvt.f32.bf16 %f1, %h4;\nfma.rn.bf16 %h5, %h4, %h6, %h7;\n"
                   "cvt.rn.bf16x2.f32 %r0, %f2, %f0;");
    std::mt19937 rng(99);
    for (int iter = 0; iter < 4000; ++iter) {
        uint32_t xs[32];
        for (unsigned l = 0; l < 32; ++l) {
            xs[l] = rng();
            if (l == 0) xs[l] = 0x7FC00001u;  // NaN
            if (l == 1) xs[l] = 0x7F7FFFFFu;  // the largest f32: RN overflows to inf
            fx.reg("%f0", l) = xs[l];
            fx.reg("%f2", l) = 0x3F800000u;  // 1.0
            fx.reg("%h4", l) = uint16_t(xs[l] >> 3);
            fx.reg("%h6", l) = 0x3F80;  // 1.0
            fx.reg("%h7", l) = 0x8000;  // -0.0: fma(a, 1, -0) = a
        }
        fx.run();
        for (unsigned l = 0; l < 32; ++l) {
            const uint32_t x = xs[l];
            const bool neg = x >> 31, nan = (x & 0x7FFFFFFF) > 0x7F800000;
            const uint32_t lower = x & 0xFFFF;
            const uint16_t trunc = uint16_t(x >> 16);
            uint16_t rn = uint16_t((x + 0x7FFF + ((x >> 16) & 1)) >> 16);
            uint16_t rm = neg && lower ? uint16_t(trunc + 1) : trunc, rp = !neg && lower ? uint16_t(trunc + 1) : trunc;
            if (!nan && (trunc & 0x7F80) == 0x7F80) rm = rp = trunc;  // infinities are exact
            if (nan) rn = rm = rp = core::kHalfCanonicalNaN;
            INFO("x = 0x" << std::hex << x);
            CHECK(fx.reg("%h0", l) == rn);
            CHECK(fx.reg("%h1", l) == (nan ? core::kHalfCanonicalNaN : trunc));
            CHECK(fx.reg("%h2", l) == rm);
            CHECK(fx.reg("%h3", l) == rp);
            CHECK(fx.reg("%r0", l) == ((uint32_t(0x3F80) << 16) | rn));  // a -> high half, b -> low
            const uint16_t h4 = uint16_t(x >> 3);
            const bool h4nan = (h4 & 0x7FFF) > 0x7F80;
            if (!h4nan) {
                CHECK(fx.reg("%f1", l) == uint32_t(h4) << 16);
                CHECK(fx.reg("%h5", l) == h4);
            } else {
                CHECK(fx.reg("%h5", l) == core::kHalfCanonicalNaN);
            }
        }
    }
}

TEST_CASE("half: packed x2 forms and min/max and neg/abs and comparisons and integer conversions", "[half]") {
    WarpFixture fx(
        "add.rn.f16x2 %r0, %r1, %r2;\nmax.f16 %h0, %h4, %h5;\nmin.f16 %h1, %h4, %h5;\n"
        "min.NaN.f16 %h2, %h4, %h5;\nneg.f16 %h3, %h4;\nabs.f16 %h6, %h4;\n"
        "setp.lt.f16x2 %p0|%p1, %r1, %r2;\nset.gt.u32.f16x2 %r3, %r1, %r2;\nset.eq.f16.f16 %h7, %h4, %h5;\n"
        "setp.num.f16 %p2, %h4, %h5;\ncvt.rni.s32.f16 %r4, %h4;\ncvt.rn.f16.s32 %r5, %r6;\n"
        "cvt.rz.f16.u64 %r7, %rd0;\ncvt.f32.f16 %f0, %h4;\nmul.rn.sat.f16x2 %r8, %r1, %r2;\n"
        "max.bf16x2 %r9, %r1, %r2;\nadd.rn.ftz.f16 %r10, %h4, %h5;");
    auto put = [&](unsigned l, uint32_t r1, uint32_t r2, uint16_t h4, uint16_t h5) {
        fx.reg("%r1", l) = r1, fx.reg("%r2", l) = r2, fx.reg("%h4", l) = h4, fx.reg("%h5", l) = h5;
    };
    // lane 0: 1.0|2.0 + 0.5|-3.0; max(1.5, NaN) = 1.5; 2.5 rounds to even
    put(0, 0x4000'3C00, 0xC200'3800, 0x3E00, 0x7E00);
    put(1, 0x7C00'7C00, 0xFC00'3C00, 0x8000, 0x0000);  // inf + -inf = NaN; -0 vs +0
    put(2, 0x0001'0001, 0x0001'8001, 0x4100, 0xC100);  // subnormals; 2.5 vs -2.5
    fx.reg("%r6", 0) = uint32_t(-70000);
    fx.reg("%r6", 1) = 65519;
    fx.reg("%r6", 2) = 2049;
    fx.reg("%rd0", 0) = ~0ull;
    fx.reg("%rd0", 1) = 65535;
    fx.reg("%rd0", 2) = 4097;
    fx.run(0x7);
    CHECK(fx.reg("%r0", 0) == 0xBC00'3E00);  // 2.0 + -3.0 = -1.0 | 1.0 + 0.5 = 1.5
    CHECK(fx.reg("%h0", 0) == 0x3E00);
    CHECK(fx.reg("%h1", 0) == 0x3E00);
    CHECK(fx.reg("%h2", 0) == core::kHalfCanonicalNaN);
    CHECK(fx.reg("%h3", 0) == 0xBE00);
    CHECK(fx.reg("%h6", 1) == 0x0000);
    CHECK(fx.reg("%p0", 0) == 0);  // 1.0 < 0.5
    CHECK(fx.reg("%p1", 0) == 0);  // 2.0 < -3.0
    CHECK(fx.reg("%r3", 0) == 0xFFFF'FFFF);
    CHECK(fx.reg("%h7", 0) == 0);
    CHECK(fx.reg("%p2", 0) == 0);
    CHECK(fx.reg("%r4", 0) == 2);  // 1.5 -> 2
    CHECK(fx.reg("%r5", 0) == 0xFC00);  // -70000 -> -inf
    CHECK(fx.reg("%r7", 0) == 0x7BFF);  // rz: the largest finite
    CHECK(fx.reg("%f0", 0) == fbits(1.5f));
    CHECK(fx.reg("%r8", 0) == 0x0000'3800);  // sat: 0.5 | -6 -> 0
    CHECK(fx.reg("%r9", 0) == 0x4000'3C00);  // bf16 max per half (bf16 bits: 2.0 | 0.0078)
    // lane 1
    CHECK(fx.reg("%r0", 1) == (uint32_t(core::kHalfCanonicalNaN) << 16 | 0x7C00));
    CHECK(fx.reg("%h0", 1) == 0x0000);  // max(-0, +0) = +0
    CHECK(fx.reg("%h1", 1) == 0x8000);  // min(-0, +0) = -0
    CHECK(fx.reg("%h3", 1) == 0x0000);
    CHECK(fx.reg("%h7", 1) == 0x3C00);  // -0 == +0 -> 1.0
    CHECK(fx.reg("%r5", 1) == 0x7BFF);  // 65519 rounds to 65504
    CHECK(fx.reg("%r7", 1) == 0x7BFF);
    CHECK(fx.reg("%p1", 1) == 0);       // inf < -inf
    // lane 2
    CHECK(fx.reg("%r0", 2) == 0x0002'0000);  // subnormal sums, exact
    CHECK(fx.reg("%r10", 2) == 0x0000);      // 2.5 + -2.5 = +0
    CHECK(fx.reg("%r4", 2) == 2);            // 2.5 -> 2 (nearest even)
    CHECK(fx.reg("%r5", 2) == 0x6800);       // 2049 -> 2048
    CHECK(fx.reg("%r7", 2) == 0x6C00);       // 4097 rz -> 4096
    CHECK(fx.reg("%p0", 2) == 0);            // 2^-24 < -2^-24
    CHECK(fx.reg("%p1", 2) == 0);
}

TEST_CASE("half: .ftz flushes f16 subnormal inputs and results", "[half]") {
    WarpFixture fx("add.rn.ftz.f16 %h0, %h4, %h5;\nadd.rn.f16 %h1, %h4, %h5;\nmul.rn.ftz.f16 %h2, %h6, %h6;\n"
                   "mul.rn.f16 %h3, %h6, %h6;");
    fx.reg("%h4", 0) = 0x0200;  // subnormal 2^-15
    fx.reg("%h5", 0) = 0x0400;  // smallest normal 2^-14
    fx.reg("%h6", 0) = 0x0C00;  // 2^-12
    fx.run(1);
    CHECK(fx.reg("%h0", 0) == 0x0400);
    CHECK(fx.reg("%h1", 0) == 0x0600);
    CHECK(fx.reg("%h2", 0) == 0x0000);  // 2^-24 is subnormal: flushed
    CHECK(fx.reg("%h3", 0) == 0x0001);
}

TEST_CASE("half: inline-asm scoped registers without '%' and literal 0 in a pack parse", "[half][ptx]") {
    WarpFixture fx("{.reg .f16 low,high;\nmov.b32 {low,high},%r1;\ncvt.f32.f16 %f0, high;}\n"
                   "{ .reg .pred __$temp3;\n setp.lt.f16 __$temp3, %h4, %h5;\n selp.u16 %h0, 1, 0, __$temp3;}\n"
                   "{ mov.b32 %f1, {0,%h6};}");
    fx.reg("%r1", 0) = 0x4200'3C00;  // high = 3.0
    fx.reg("%h4", 0) = 0x3C00;
    fx.reg("%h5", 0) = 0x4000;
    fx.reg("%h6", 0) = 0x3FC0;  // bf16 1.5
    fx.run(1);
    CHECK(fx.reg("%f0", 0) == fbits(3.0f));
    CHECK(fx.reg("%h0", 0) == 1);
    CHECK(fx.reg("%f1", 0) == fbits(1.5f));
}
