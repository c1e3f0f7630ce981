// SPDX-License-Identifier: Apache-2.0
// Integer and float arithmetic: add sub mul mad mul24 mad24 fma div rem min max neg abs copysign.
#include <algorithm>
#include <limits>

#include "core/ops_common.h"

namespace stacksim::core::ops {
namespace {

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("fma"))) float hw_fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
__attribute__((target("fma"))) double hw_fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
const bool kHaveFma = __builtin_cpu_supports("fma");
#else
float hw_fma(float a, float b, float c) { return std::fma(a, b, c); }
double hw_fma(double a, double b, double c) { return std::fma(a, b, c); }
const bool kHaveFma = false;
#endif

/// Applies .ftz to a float input.
template <class T> inline T fin(const Instruction& in, T v) { return in.ftz ? flush(v) : v; }

template <class T> inline T wrap_add(T a, T b) { return static_cast<T>(uint64_t(a) + uint64_t(b)); }
template <class T> inline T wrap_sub(T a, T b) { return static_cast<T>(uint64_t(a) - uint64_t(b)); }
template <class T> inline T wrap_mul(T a, T b) { return static_cast<T>(uint64_t(a) * uint64_t(b)); }

/// Saturating s32 result of a 64-bit intermediate (add.sat.s32 / sub.sat.s32).
template <class T> inline T sat_s32(int64_t v) {
    v = std::clamp<int64_t>(v, std::numeric_limits<int32_t>::min(),
                            std::numeric_limits<int32_t>::max());
    return static_cast<T>(v);
}

/// High half of the full product (mul.hi).
template <class T> inline T mul_hi(T a, T b) {
    if constexpr (sizeof(T) == 8) {
        using W = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
        return static_cast<T>((W(a) * W(b)) >> 64);
    } else {
        using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
        return static_cast<T>((W(a) * W(b)) >> (8 * sizeof(T)));
    }
}

/// Double-width integer type for mul.wide / mad.wide.
template <class T> struct Wide { using type = T; };
template <> struct Wide<int16_t> { using type = int32_t; };
template <> struct Wide<uint16_t> { using type = uint32_t; };
template <> struct Wide<int32_t> { using type = int64_t; };
template <> struct Wide<uint32_t> { using type = uint64_t; };

/// d = op(a, b) over the instruction type; `op` is a generic lambda on typed values.
template <class Op> inline void binop(const Instruction& in, WarpExecContext& w, uint32_t mask, Op&& op) {
    with_num(in, in.type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        for_lanes(mask, [&](unsigned l) {
            T r = op(read<T>(in.src[0], w, l), read<T>(in.src[1], w, l));
            write<T>(in.dst[0], w, l, r);
        });
    });
}

/// d = op(a) over the instruction type.
template <class Op> inline void unop(const Instruction& in, WarpExecContext& w, uint32_t mask, Op&& op) {
    with_num(in, in.type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        for_lanes(mask, [&](unsigned l) { write<T>(in.dst[0], w, l, T(op(read<T>(in.src[0], w, l)))); });
    });
}

/// Integer multiply-add family shared by mul (c absent) and mad.
template <bool kMad> void mul_family(const Instruction& in, WarpExecContext& w, uint32_t mask) {
    with_num(in, in.type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        const auto mode = static_cast<MulMode>(in.mode);
        for_lanes(mask, [&](unsigned l) {
            T a = read<T>(in.src[0], w, l), b = read<T>(in.src[1], w, l);
            if constexpr (kIsFloat<T>) {
                a = fin(in, a);
                b = fin(in, b);
                T r;
                if constexpr (kMad) {
                    T c = fin(in, read<T>(in.src[2], w, l));
                    r = rounded<T>(in.rounding, [&] { return fused_mul_add(a, b, c); });
                } else {
                    r = rounded<T>(in.rounding, [&] { return a * b; });
                }
                write<T>(in.dst[0], w, l, finish_float(in, r));
            } else if (mode == MulMode::Wide) {
                if constexpr (sizeof(T) <= 4) {
                    using W = typename Wide<T>::type;
                    W r = wrap_mul<W>(W(a), W(b));
                    if constexpr (kMad) r = wrap_add<W>(r, read<W>(in.src[2], w, l));
                    write<W>(in.dst[0], w, l, r);
                } else {
                    fail(in, "mul.wide needs a 16- or 32-bit type");
                }
            } else {
                T r = mode == MulMode::Hi ? mul_hi(a, b) : wrap_mul(a, b);
                if constexpr (kMad) r = wrap_add<T>(r, read<T>(in.src[2], w, l));
                write<T>(in.dst[0], w, l, r);
            }
        });
    });
}

/// 24-bit multiply: low (.lo) or bits 47..16 (.hi) of the 48-bit product, plus c for mad24.
template <bool kMad> void mul24_family(const Instruction& in, WarpExecContext& w, uint32_t mask) {
    const bool sgn = in.type == DataType::S32;
    for_lanes(mask, [&](unsigned l) {
        uint32_t a = read<uint32_t>(in.src[0], w, l), b = read<uint32_t>(in.src[1], w, l);
        int64_t x = sgn ? int64_t(int32_t(a << 8) >> 8) : int64_t(a & 0xFFFFFF);
        int64_t y = sgn ? int64_t(int32_t(b << 8) >> 8) : int64_t(b & 0xFFFFFF);
        uint64_t p = uint64_t(x * y);
        uint32_t r = in.mode == uint8_t(MulMode::Hi) ? uint32_t(p >> 16) : uint32_t(p);
        if constexpr (kMad) r += read<uint32_t>(in.src[2], w, l);
        write<uint32_t>(in.dst[0], w, l, r);
    });
}

}  // namespace

float fused_mul_add(float a, float b, float c) { return kHaveFma ? hw_fma(a, b, c) : std::fma(a, b, c); }
double fused_mul_add(double a, double b, double c) { return kHaveFma ? hw_fma(a, b, c) : std::fma(a, b, c); }

void exec_add(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    if (__builtin_expect(in.cc, 0)) return exec_add_cc(in, w, mask);
    if (is_half_type(in.type)) return exec_half_arith(in, w, mask, HalfOp::Add);
    binop(in, w, mask, [&](auto a, auto b) {
        using T = decltype(a);
        if constexpr (kIsFloat<T>) {
            a = fin(in, a);
            b = fin(in, b);
            return finish_float(in, rounded<T>(in.rounding, [&] { return a + b; }));
        } else {
            if (in.sat) return sat_s32<T>(int64_t(a) + int64_t(b));
            return wrap_add(a, b);
        }
    });
}

void exec_sub(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    if (__builtin_expect(in.cc, 0)) return exec_sub_cc(in, w, mask);
    if (is_half_type(in.type)) return exec_half_arith(in, w, mask, HalfOp::Sub);
    binop(in, w, mask, [&](auto a, auto b) {
        using T = decltype(a);
        if constexpr (kIsFloat<T>) {
            a = fin(in, a);
            b = fin(in, b);
            return finish_float(in, rounded<T>(in.rounding, [&] { return a - b; }));
        } else {
            if (in.sat) return sat_s32<T>(int64_t(a) - int64_t(b));
            return wrap_sub(a, b);
        }
    });
}

void exec_mul(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    if (is_half_type(in.type)) return exec_half_arith(in, w, mask, HalfOp::Mul);
    mul_family<false>(in, w, mask);
}
void exec_mad(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    if (__builtin_expect(in.cc, 0)) return exec_mad_cc(in, w, mask);
    mul_family<true>(in, w, mask);
}
void exec_mul24(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    mul24_family<false>(in, w, mask);
}
void exec_mad24(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    mul24_family<true>(in, w, mask);
}

void exec_fma(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    if (is_half_type(in.type)) return exec_half_arith(in, w, mask, HalfOp::Fma);
    with_float(in, in.type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        for_lanes(mask, [&](unsigned l) {
            T a = fin(in, read<T>(in.src[0], w, l)), b = fin(in, read<T>(in.src[1], w, l));
            T c = fin(in, read<T>(in.src[2], w, l));
            write<T>(in.dst[0], w, l,
                     finish_float(in, rounded<T>(in.rounding, [&] { return fused_mul_add(a, b, c); })));
        });
    });
}

// Integer division truncates toward zero. Division by zero yields all ones (like the
// hardware's unsigned result); MIN / -1 wraps to MIN.
void exec_div(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    binop(in, w, mask, [&](auto a, auto b) {
        using T = decltype(a);
        if constexpr (kIsFloat<T>) {
            a = fin(in, a);
            b = fin(in, b);
            return finish_float(in, rounded<T>(in.rounding, [&] { return a / b; }));
        } else {
            if (b == 0) return static_cast<T>(~uint64_t(0));
            if constexpr (std::is_signed_v<T>)
                if (b == T(-1)) return wrap_sub<T>(T(0), a);
            return static_cast<T>(a / b);
        }
    });
}

// Remainder has the sign of the dividend; x % 0 = x; MIN % -1 = 0.
void exec_rem(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    binop(in, w, mask, [&](auto a, auto b) {
        using T = decltype(a);
        if constexpr (kIsFloat<T>) {
            return std::fmod(a, b);
        } else {
            if (b == 0) return a;
            if constexpr (std::is_signed_v<T>)
                if (b == T(-1)) return T(0);
            return static_cast<T>(a % b);
        }
    });
}

// Float min/max return the non-NaN operand when one input is NaN (IEEE minNum/maxNum).
void exec_min(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    if (is_half_type(in.type)) return exec_half_arith(in, w, mask, HalfOp::Min);
    binop(in, w, mask, [&](auto a, auto b) {
        using T = decltype(a);
        if constexpr (kIsFloat<T>) return finish_float(in, std::fmin(fin(in, a), fin(in, b)));
        else return std::min(a, b);
    });
}

void exec_max(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    if (is_half_type(in.type)) return exec_half_arith(in, w, mask, HalfOp::Max);
    binop(in, w, mask, [&](auto a, auto b) {
        using T = decltype(a);
        if constexpr (kIsFloat<T>) return finish_float(in, std::fmax(fin(in, a), fin(in, b)));
        else return std::max(a, b);
    });
}

void exec_neg(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    if (is_half_type(in.type)) return exec_half_arith(in, w, mask, HalfOp::Neg);
    unop(in, w, mask, [&](auto a) {
        using T = decltype(a);
        if constexpr (kIsFloat<T>) return finish_float(in, -fin(in, a));
        else return wrap_sub<T>(T(0), a);
    });
}

void exec_abs(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    if (is_half_type(in.type)) return exec_half_arith(in, w, mask, HalfOp::Abs);
    unop(in, w, mask, [&](auto a) {
        using T = decltype(a);
        if constexpr (kIsFloat<T>) return finish_float(in, std::fabs(fin(in, a)));
        else if constexpr (std::is_signed_v<T>) return a < 0 ? wrap_sub<T>(T(0), a) : a;
        else return a;
    });
}

// copysign d, a, b: the magnitude of b with the sign of a.
void exec_copysign(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    binop(in, w, mask, [&](auto a, auto b) {
        using T = decltype(a);
        if constexpr (kIsFloat<T>) return std::copysign(b, a);
        else return b;
    });
}

}  // namespace stacksim::core::ops
