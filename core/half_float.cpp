// SPDX-License-Identifier: Apache-2.0
// Software f16/bf16: decoding, correctly rounded encoding, round-to-odd evaluation.
#include "core/half_float.h"

#include <cfenv>
#include <cmath>
#include <cstring>

namespace stacksim::core {
namespace {

struct Format {
    int man;   ///< fraction bits
    int emin;  ///< exponent of the smallest normal
    int emax;  ///< exponent of the largest finite value
    int bias;
};

constexpr Format fmt(HalfKind k) { return k == HalfKind::F16 ? Format{10, -14, 15, 15} : Format{7, -126, 127, 127}; }

/// Rounds magnitude mag * 2^exp (mag != 0) to format f; returns the pattern without the sign.
uint16_t round_magnitude(bool neg, uint64_t mag, int exp, const Format& f, RoundMode rm) {
    const int msb = 63 - __builtin_clzll(mag);
    const int e = msb + exp;  // the value lies in [2^e, 2^(e+1))
    const int lsb = (e >= f.emin ? e : f.emin) - f.man;
    const int shift = lsb - exp;
    uint64_t q;
    if (shift <= 0) {
        q = mag << -shift;  // exact: at most man + 1 bits
    } else {
        q = shift >= 64 ? 0 : mag >> shift;
        const uint64_t rem = shift >= 64 ? mag : mag & ((uint64_t{1} << shift) - 1);
        // Compare the remainder with half an ulp without overflowing.
        int cmp;  // -1 below half, 0 exactly half, 1 above
        if (shift > 64) {
            cmp = -1;
        } else {
            const uint64_t half = uint64_t{1} << (shift - 1);
            cmp = rem < half ? -1 : rem == half ? 0 : 1;
        }
        bool up = false;
        switch (rm) {
        case RoundMode::Rz: case RoundMode::Rzi: break;
        case RoundMode::Rm: case RoundMode::Rmi: up = neg && rem != 0; break;
        case RoundMode::Rp: case RoundMode::Rpi: up = !neg && rem != 0; break;
        default: up = cmp > 0 || (cmp == 0 && (q & 1)); break;
        }
        q += up;
    }
    // Normal: biased exponent (lsb + man + bias) over the fraction q - 2^man; subnormal
    // (lsb + man == emin): biased exponent 0 over q. Both are ((lsb + man + bias - 1) << man) + q,
    // which also absorbs a carry out of the significand.
    const int64_t bits = (int64_t(lsb + f.man + f.bias - 1) << f.man) + int64_t(q);
    const int64_t inf = int64_t(f.emax + f.bias + 1) << f.man;
    if (bits >= inf) {
        bool to_inf;
        switch (rm) {
        case RoundMode::Rz: case RoundMode::Rzi: to_inf = false; break;
        case RoundMode::Rm: case RoundMode::Rmi: to_inf = neg; break;
        case RoundMode::Rp: case RoundMode::Rpi: to_inf = !neg; break;
        default: to_inf = true; break;
        }
        return uint16_t(to_inf ? inf : inf - 1);
    }
    return uint16_t(bits);
}

uint16_t with_sign(bool neg, uint16_t mag) { return uint16_t(mag | (neg ? 0x8000 : 0)); }

}  // namespace

double half_to_double(uint16_t h, HalfKind k) {
    const Format f = fmt(k);
    const bool neg = h & 0x8000;
    const int ebits = (h >> f.man) & ((1 << (15 - f.man)) - 1);
    const int frac = h & ((1 << f.man) - 1);
    double v;
    if (ebits == (1 << (15 - f.man)) - 1) v = frac ? std::nan("") : INFINITY;
    else if (ebits == 0) v = std::ldexp(double(frac), f.emin - f.man);
    else v = std::ldexp(double(frac | (1 << f.man)), ebits - f.bias - f.man);
    return neg ? -v : v;
}

uint16_t half_from_double(double x, HalfKind k, RoundMode rm) {
    if (std::isnan(x)) return kHalfCanonicalNaN;
    const bool neg = std::signbit(x);
    const Format f = fmt(k);
    if (std::isinf(x)) return with_sign(neg, uint16_t(((1 << (15 - f.man)) - 1) << f.man));
    if (x == 0) return with_sign(neg, 0);
    uint64_t b;
    std::memcpy(&b, &x, 8);
    const int be = int((b >> 52) & 0x7FF);
    uint64_t mag = b & ((uint64_t{1} << 52) - 1);
    int exp;
    if (be == 0) {
        exp = -1074;
    } else {
        mag |= uint64_t{1} << 52;
        exp = be - 1075;
    }
    return with_sign(neg, round_magnitude(neg, mag, exp, f, rm));
}

uint16_t half_from_int(bool negative, uint64_t magnitude, HalfKind k, RoundMode rm) {
    if (magnitude == 0) return 0;
    return with_sign(negative, round_magnitude(negative, magnitude, 0, fmt(k), rm));
}

bool half_is_nan(uint16_t h, HalfKind k) {
    const Format f = fmt(k);
    const uint16_t inf = uint16_t(((1 << (15 - f.man)) - 1) << f.man);
    return (h & 0x7FFF) > inf;
}

bool half_is_subnormal(uint16_t h, HalfKind k) {
    const Format f = fmt(k);
    return (h & 0x7FFF) != 0 && ((h >> f.man) & ((1 << (15 - f.man)) - 1)) == 0;
}

double round_to_odd(double (*op)(double, double, double), double a, double b, double c) {
    std::fenv_t env;
    std::feholdexcept(&env);
    std::fesetround(FE_TOWARDZERO);
    volatile double va = a, vb = b, vc = c;
    volatile double r = op(va, vb, vc);
    const bool inexact = std::fetestexcept(FE_INEXACT) != 0;
    std::fesetenv(&env);
    double d = r;
    if (inexact && std::isfinite(d)) {
        uint64_t u;
        std::memcpy(&u, &d, 8);
        u |= 1;
        std::memcpy(&d, &u, 8);
    }
    return d;
}

}  // namespace stacksim::core
