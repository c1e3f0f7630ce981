// SPDX-License-Identifier: Apache-2.0
// Half precision (.f16 .f16x2 .bf16 .bf16x2): add sub mul fma min max neg abs, setp/set and
// cvt, computed with the software reference of core/half_float.h (bit-exact).
#include <algorithm>
#include <limits>

#include "core/half_float.h"
#include "core/ops_common.h"
#include "core/ptx_compare.h"

namespace stacksim::core::ops {
namespace {

HalfKind kind_of(DataType t) { return t == DataType::BF16 || t == DataType::BF16x2 ? HalfKind::BF16 : HalfKind::F16; }
unsigned lanes_of(DataType t) { return t == DataType::F16x2 || t == DataType::BF16x2 ? 2 : 1; }

uint16_t part(uint64_t v, unsigned i) { return uint16_t(v >> (16 * i)); }

double add3(double a, double b, double) { return a + b; }
double sub3(double a, double b, double) { return a - b; }
double mul3(double a, double b, double) { return a * b; }
double fma3(double a, double b, double c) { return fused_mul_add(a, b, c); }

/// An operand value with .ftz applied (f16 only: subnormal inputs become signed zeros).
double in_value(const Instruction& in, uint16_t h, HalfKind k) {
    if (in.ftz && k == HalfKind::F16 && half_is_subnormal(h, k)) h &= 0x8000;
    return half_to_double(h, k);
}

/// Encodes a result: rounding, .ftz (f16 subnormal results become signed zeros) and .sat
/// (clamp to [0, 1], NaN -> +0).
uint16_t out_value(const Instruction& in, double v, HalfKind k) {
    const auto rm = static_cast<RoundMode>(in.rounding);
    uint16_t h = half_from_double(v, k, rm);
    if (in.ftz && k == HalfKind::F16 && half_is_subnormal(h, k)) h &= 0x8000;
    if (in.sat) {
        const double r = half_to_double(h, k);
        if (std::isnan(r) || r <= 0) h = 0;
        else if (r > 1) h = half_from_double(1.0, k, RoundMode::Rn);
    }
    return h;
}

/// min/max: a NaN operand yields the other one (both NaN: canonical NaN); .NaN (mode 1)
/// yields canonical NaN when either is NaN; -0 is below +0.
uint16_t min_max(const Instruction& in, uint16_t a, uint16_t b, HalfKind k, bool is_max) {
    const bool an = half_is_nan(a, k), bn = half_is_nan(b, k);
    if (an || bn) {
        if (in.mode == 1 || (an && bn)) return kHalfCanonicalNaN;
        return an ? b : a;
    }
    double x = in_value(in, a, k), y = in_value(in, b, k);
    bool pick_a;
    if (x == y) pick_a = is_max ? !std::signbit(x) : std::signbit(x);
    else pick_a = is_max ? x > y : x < y;
    uint16_t r = pick_a ? a : b;
    if (in.ftz && k == HalfKind::F16 && half_is_subnormal(r, k)) r &= 0x8000;
    return r;
}

/// One correctly rounded operation: round-to-odd in double, then one rounding to the format.
/// An exact zero is recomputed in the instruction's rounding mode for its IEEE sign (x - x is
/// -0 only when rounding down).
uint16_t arith(const Instruction& in, double (*op)(double, double, double), uint16_t x, uint16_t y, uint16_t z,
               HalfKind k) {
    const double a = in_value(in, x, k), b = in_value(in, y, k), c = in_value(in, z, k);
    double r = round_to_odd(op, a, b, c);
    if (r == 0) r = rounded<double>(in.rounding, [&] { return op(a, b, c); });
    return out_value(in, r, k);
}

}  // namespace

bool is_half_type(DataType t) {
    return t == DataType::F16 || t == DataType::F16x2 || t == DataType::BF16 || t == DataType::BF16x2;
}

void exec_half_arith(const Instruction& in, WarpExecContext& w, uint32_t mask, HalfOp op) {
    const HalfKind k = kind_of(in.type);
    const unsigned n = lanes_of(in.type);
    for_lanes(mask, [&](unsigned l) {
        const uint64_t a = read_raw(in.src[0], w, l);
        const uint64_t b = in.num_src > 1 ? read_raw(in.src[1], w, l) : 0;
        const uint64_t c = in.num_src > 2 ? read_raw(in.src[2], w, l) : 0;
        uint64_t d = 0;
        for (unsigned i = 0; i < n; ++i) {
            const uint16_t x = part(a, i), y = part(b, i), z = part(c, i);
            uint16_t r = 0;
            switch (op) {
            case HalfOp::Add: r = arith(in, add3, x, y, 0, k); break;
            case HalfOp::Sub: r = arith(in, sub3, x, y, 0, k); break;
            case HalfOp::Mul: r = arith(in, mul3, x, y, 0, k); break;
            case HalfOp::Fma: r = arith(in, fma3, x, y, z, k); break;
            case HalfOp::Min: r = min_max(in, x, y, k, false); break;
            case HalfOp::Max: r = min_max(in, x, y, k, true); break;
            // neg/abs act on the sign bit (NaNs keep their payload); .ftz flushes subnormals.
            case HalfOp::Neg: r = uint16_t(x ^ 0x8000); break;
            case HalfOp::Abs: r = uint16_t(x & 0x7FFF); break;
            }
            if ((op == HalfOp::Neg || op == HalfOp::Abs) && in.ftz && k == HalfKind::F16 && half_is_subnormal(r, k))
                r &= 0x8000;
            d |= uint64_t(r) << (16 * i);
        }
        w.reg(in.dst[0].reg, l) = d;
    });
}

// setp.cmp[.bop].f16 p[|q], a, b[, c] and setp.cmp.f16x2 p|q, a, b: for x2, p is the low
// halves' result and q the high halves'. set.cmp.dtype.f16[x2] d, a, b: d = 1.0 in the
// destination format (f16, f32) or all ones (u32/s32), per half for x2 destinations.
void exec_half_compare(const Instruction& in, WarpExecContext& w, uint32_t mask, bool setp) {
    const HalfKind k = kind_of(in.type);
    const unsigned n = lanes_of(in.type);
    const auto c = static_cast<CmpOp>(in.cmp);
    const bool has_c = in.bool_op != uint8_t(BoolOp::None);
    for_lanes(mask, [&](unsigned l) {
        const uint64_t a = read_raw(in.src[0], w, l), b = read_raw(in.src[1], w, l);
        const bool pc = has_c ? read_pred(in.src[2], w, l) : false;
        bool t[2] = {false, false};
        for (unsigned i = 0; i < n; ++i) {
            t[i] = compare<double>(c, in_value(in, part(a, i), k), in_value(in, part(b, i), k));
            if (has_c) t[i] = combine(in.bool_op, t[i], pc);
        }
        if (setp) {
            if (n == 2) {
                write<bool>(in.dst[0], w, l, t[0]);
                if (in.num_dst > 1) write<bool>(in.dst[1], w, l, t[1]);
            } else {
                write<bool>(in.dst[0], w, l, t[0]);
                if (in.num_dst > 1) {
                    bool q = compare<double>(c, in_value(in, part(a, 0), k), in_value(in, part(b, 0), k));
                    write<bool>(in.dst[1], w, l, has_c ? combine(in.bool_op, !q, pc) : !q);
                }
            }
            return;
        }
        uint64_t d = 0;
        switch (in.src_type) {  // the destination type of set
        case DataType::F32: d = t[0] ? to_bits(1.0f) : 0; break;
        case DataType::F16: case DataType::F16x2: case DataType::BF16: case DataType::BF16x2: {
            const uint16_t one = half_from_double(1.0, kind_of(in.src_type), RoundMode::Rn);
            for (unsigned i = 0; i < n; ++i) d |= uint64_t(t[i] ? one : 0) << (16 * i);
            break;
        }
        default:  // u32/s32: all ones, per 16-bit half for x2 compares
            if (n == 2) d = (t[0] ? 0xFFFFu : 0) | (t[1] ? 0xFFFF0000u : 0);
            else d = t[0] ? 0xFFFFFFFFull : 0;
            break;
        }
        w.reg(in.dst[0].reg, l) = d;
    });
}

// cvt with a 16-bit float on either side: float <-> f16/bf16 (rounding modes .rn .rz .rm .rp,
// .ftz, .sat), integer <-> f16/bf16 (.rni .rzi .rmi .rpi to integers), and
// cvt.rnd.{f16x2,bf16x2}.f32 d, a, b packing a into the high and b into the low half.
void exec_half_cvt(const Instruction& in, WarpExecContext& w, uint32_t mask) {
    const DataType dt = in.type, st = in.src_type;
    const bool dhalf = is_half_type(dt), shalf = is_half_type(st);
    auto source_value = [&](unsigned l, unsigned slot) -> double {
        const uint64_t raw = read_raw(in.src[slot], w, l);
        if (shalf) return in_value(in, uint16_t(raw), kind_of(st));
        switch (st) {
        case DataType::F32: {
            float f = from_bits<float>(raw);
            return double(in.ftz ? flush(f) : f);
        }
        case DataType::F64: return from_bits<double>(raw);
        default: return 0;
        }
    };
    for_lanes(mask, [&](unsigned l) {
        uint64_t d = 0;
        if (dhalf) {
            const HalfKind k = kind_of(dt);
            auto one = [&](unsigned slot) -> uint16_t {
                if (shalf || st == DataType::F32 || st == DataType::F64) {
                    double v = source_value(l, slot);
                    if (shalf && static_cast<RoundMode>(in.rounding) >= RoundMode::Rni) {
                        const auto r = static_cast<RoundMode>(in.rounding);
                        v = r == RoundMode::Rni ? std::nearbyint(v) : r == RoundMode::Rmi ? std::floor(v)
                          : r == RoundMode::Rpi ? std::ceil(v) : std::trunc(v);
                    }
                    return out_value(in, v, k);
                }
                // Integer source: exact magnitude, one rounding.
                const uint64_t raw = read_raw(in.src[slot], w, l);
                bool neg = false;
                uint64_t mag = raw;
                switch (st) {
                case DataType::S8: neg = int8_t(raw) < 0, mag = uint64_t(neg ? -int64_t(int8_t(raw)) : int8_t(raw)); break;
                case DataType::S16: neg = int16_t(raw) < 0, mag = uint64_t(neg ? -int64_t(int16_t(raw)) : int16_t(raw)); break;
                case DataType::S32: neg = int32_t(raw) < 0, mag = uint64_t(neg ? -int64_t(int32_t(raw)) : int32_t(raw)); break;
                case DataType::S64: neg = int64_t(raw) < 0, mag = neg ? uint64_t(0) - raw : raw; break;
                case DataType::U8: mag = uint8_t(raw); break;
                case DataType::U16: mag = uint16_t(raw); break;
                case DataType::U32: mag = uint32_t(raw); break;
                default: break;
                }
                uint16_t h = half_from_int(neg, mag, k, static_cast<RoundMode>(in.rounding));
                if (in.sat) h = out_value(in, half_to_double(h, k), k);
                return h;
            };
            if (lanes_of(dt) == 2) d = uint64_t(one(1)) | (uint64_t(one(0)) << 16);
            else d = one(0);
        } else {
            const double v = source_value(l, 0);
            switch (dt) {
            case DataType::F32: {
                float f = float(v);  // exact: every f16/bf16 value is an f32
                if (in.ftz) f = flush(f);
                if (in.sat) f = std::isnan(f) ? 0.0f : std::min(1.0f, std::max(0.0f, f));
                if (std::isnan(f)) f = from_bits<float>(0x7FFFFFFF);
                d = to_bits(f);
                break;
            }
            case DataType::F64: {
                double r = v;
                if (in.sat) r = std::isnan(r) ? 0.0 : std::min(1.0, std::max(0.0, r));
                d = to_bits(r);
                break;
            }
            default:
                // float -> integer: round to integral (.rni/.rzi/.rmi/.rpi, .rzi when absent),
                // NaN -> 0, saturate to the destination range.
                with_int(in, dt, [&](auto tag) {
                    using T = typename decltype(tag)::type;
                    double r;
                    switch (static_cast<RoundMode>(in.rounding)) {
                    case RoundMode::Rni: case RoundMode::Rn: r = std::nearbyint(v); break;
                    case RoundMode::Rmi: case RoundMode::Rm: r = std::floor(v); break;
                    case RoundMode::Rpi: case RoundMode::Rp: r = std::ceil(v); break;
                    default: r = std::trunc(v); break;
                    }
                    T x;
                    if (std::isnan(r)) x = T(0);
                    else if (r >= double(std::numeric_limits<T>::max())) x = std::numeric_limits<T>::max();
                    else if (r <= double(std::numeric_limits<T>::min())) x = std::numeric_limits<T>::min();
                    else x = T(r);
                    d = to_bits<T>(x);
                });
                break;
            }
        }
        w.reg(in.dst[0].reg, l) = d;
    });
}

}  // namespace stacksim::core::ops
