// SPDX-License-Identifier: Apache-2.0
// The nvcc-compiled half_ops kernel (cuda_fp16.h / cuda_bf16.h, sm_80) run through the parser
// and executor and checked against a CPU reference built on core/half_float.h (itself checked
// against the CPU's F16C conversions in test_half_float.cpp).
#include <cmath>
#include <random>

#include "core/half_float.h"
#include "tests/unit/ptx_test_util.h"

using namespace stacksim;
using core::HalfKind;
using core::RoundMode;

namespace {

double F(uint16_t h) { return core::half_to_double(h, HalfKind::F16); }
double B(uint16_t h) { return core::half_to_double(h, HalfKind::BF16); }
uint16_t toF(double v, RoundMode m = RoundMode::Rn) { return core::half_from_double(v, HalfKind::F16, m); }
uint16_t toB(double v, RoundMode m = RoundMode::Rn) { return core::half_from_double(v, HalfKind::BF16, m); }
bool nanF(uint16_t h) { return core::half_is_nan(h, HalfKind::F16); }

/// f16 fma: a * b is exact in double and the sum is rounded once via round-to-odd.
uint16_t fmaF(uint16_t a, uint16_t b, uint16_t c) {
    return toF(core::round_to_odd([](double x, double y, double z) { return std::fma(x, y, z); }, F(a), F(b), F(c)));
}
uint16_t fmaB(uint16_t a, uint16_t b, uint16_t c) {
    return toB(core::round_to_odd([](double x, double y, double z) { return std::fma(x, y, z); }, B(a), B(b), B(c)));
}

uint16_t maxF(uint16_t a, uint16_t b) {
    if (nanF(a) && nanF(b)) return core::kHalfCanonicalNaN;
    if (nanF(a)) return b;
    if (nanF(b)) return a;
    if (F(a) == F(b)) return std::signbit(F(a)) ? b : a;
    return F(a) > F(b) ? a : b;
}
uint16_t minNaNF(uint16_t a, uint16_t b) {
    if (nanF(a) || nanF(b)) return core::kHalfCanonicalNaN;
    if (F(a) == F(b)) return std::signbit(F(a)) ? a : b;
    return F(a) < F(b) ? a : b;
}

uint32_t fbits(float f) { return uint32_t(test::fbits(f)); }

}  // namespace

TEST_CASE("exec: half_ops kernel (f16 f16x2 bf16 bf16x2 from cuda_fp16.h) matches the CPU reference", "[exec][half]") {
    core::Module m = workloads::parse_ptx(test::read_source_file("tests/data/ptx/half_ops.ptx"), "half_ops.ptx");
    const unsigned n = 256;
    std::mt19937 rng(2024);
    std::vector<uint32_t> a(n), b(n), c(n), d(n);
    std::vector<float> f(n);
    for (unsigned i = 0; i < n; ++i) {
        // Mostly moderate finite values (sums and products round), some specials.
        auto h = [&]() -> uint32_t { return (rng() % 8 == 0) ? rng() & 0xFFFF : ((rng() & 0x83FF) | ((8 + rng() % 14) << 10)); };
        auto bf = [&]() -> uint32_t { return (rng() % 8 == 0) ? rng() & 0xFFFF : ((rng() & 0x807F) | ((110 + rng() % 30) << 7)); };
        a[i] = h() | h() << 16, b[i] = h() | h() << 16, c[i] = bf() | bf() << 16, d[i] = bf() | bf() << 16;
        f[i] = std::ldexp(float(int32_t(rng())) / 2147483648.0f, int(rng() % 40) - 28);
    }
    sim::SparseMemory mem;
    const uint64_t A = 0x10000, Bp = 0x20000, C = 0x30000, D = 0x40000, Fp = 0x50000, O16 = 0x60000, O32 = 0x80000;
    mem.write(A, a.data(), n * 4);
    mem.write(Bp, b.data(), n * 4);
    mem.write(C, c.data(), n * 4);
    mem.write(D, d.data(), n * 4);
    mem.write(Fp, f.data(), n * 4);
    std::vector<uint8_t> params;
    for (uint64_t p : {A, Bp, C, D, Fp, O16, O32}) test::push_param(params, p);
    test::run_grid(m.kernels.at(0), {2, 1, 1}, 128, params, mem);
    std::vector<uint16_t> o16(12 * n);
    std::vector<uint32_t> o32(4 * n);
    mem.read(O16, o16.data(), o16.size() * 2);
    mem.read(O32, o32.data(), o32.size() * 4);
    for (unsigned t = 0; t < n; ++t) {
        const uint16_t xl = uint16_t(a[t]), xh = uint16_t(a[t] >> 16), yl = uint16_t(b[t]), yh = uint16_t(b[t] >> 16);
        const uint16_t ul = uint16_t(c[t]), uh = uint16_t(c[t] >> 16), vl = uint16_t(d[t]), vh = uint16_t(d[t] >> 16);
        const uint16_t* o = &o16[12 * t];
        INFO("thread " << t << std::hex << " x=" << a[t] << " y=" << b[t] << " u=" << c[t] << " v=" << d[t]
                       << " f=" << fbits(f[t]));
        CHECK(o[0] == toF(F(xl) + F(yl)));  // exact in double, one rounding
        CHECK(o[1] == toF(F(xl) - F(yl)));
        CHECK(o[2] == toF(F(xl) * F(yl)));
        CHECK(o[3] == fmaF(xl, yl, xh));
        CHECK(o[4] == maxF(xl, yl));
        CHECK(o[5] == minNaNF(xl, yl));
        CHECK(o[6] == (F(xl) < F(yl) ? uint16_t(xl ^ 0x8000) : uint16_t(yl & 0x7FFF)));
        CHECK(o[7] == toF(f[t], RoundMode::Rz));
        CHECK(o[8] == toF(f[t], RoundMode::Rm));
        CHECK(o[9] == toF(f[t], RoundMode::Rp));
        CHECK(o[10] == fmaB(ul, vl, uh));
        CHECK(o[11] == toB(f[t]));
        CHECK(o32[4 * t] == (uint32_t(fmaF(xl, yl, xl)) | uint32_t(fmaF(xh, yh, yl)) << 16));
        CHECK(o32[4 * t + 1] == (uint32_t(fmaB(ul, vl, 0x8000)) | uint32_t(fmaB(uh, vh, 0x8000)) << 16));
        const float r2 = std::fma(float(F(yl)), float(B(vh)), float(F(xl)));
        if (!std::isnan(r2)) CHECK(o32[4 * t + 2] == fbits(r2));
        const uint32_t mask = (F(xl) > F(yl) ? 0xFFFFu : 0) | (F(xh) > F(yh) ? 0xFFFF0000u : 0);
        const double rl = std::nearbyint(F(xl));
        const int32_t i = std::isnan(rl) ? 0 : rl >= 2147483647.0 ? INT32_MAX : rl <= -2147483648.0 ? INT32_MIN : int32_t(rl);
        const float fh = float(F(xh));
        if (!std::isnan(fh)) CHECK(o32[4 * t + 3] == (mask ^ (uint32_t(i) << 8) ^ fbits(fh)));
    }
}
