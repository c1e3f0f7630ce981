// SPDX-License-Identifier: Apache-2.0
// Extended-precision integer arithmetic with the per-thread carry flag (add.cc addc sub.cc subc
// mad.cc madc) and sad.
#include "core/ops_common.h"

namespace stacksim::core::ops {
namespace {

enum class CarryOp : uint8_t { Add, Sub, Mad };

/// High half of the full product of two 32- or 64-bit integers.
template <class T> T mul_hi_int(T a, T b) {
    if constexpr (sizeof(T) == 8) {
        using W = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
        return static_cast<T>((W(a) * W(b)) >> 64);
    } else {
        using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
        return static_cast<T>((W(a) * W(b)) >> 32);
    }
}

/// d = a + b (+ CF), a - b (- CF) or [lo|hi](a * b) + c (+ CF); with .cc the carry (borrow for
/// subtraction) out of the final addition is written to CF. Integers wrap.
void carry_op(const Instruction& in, WarpExecContext& w, uint32_t mask, CarryOp op, bool carry_in) {
    with_int(in, in.type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        using U = std::make_unsigned_t<T>;
        if constexpr (sizeof(T) < 4) {
            fail(in, "carry arithmetic needs a 32- or 64-bit type");
        } else {
            for_lanes(mask, [&](unsigned l) {
                const U cin = carry_in ? U((w.carry >> l) & 1) : U(0);
                U a = static_cast<U>(read<T>(in.src[0], w, l)), b = static_cast<U>(read<T>(in.src[1], w, l));
                U d;
                bool cout;
                if (op == CarryOp::Sub) {
                    d = U(a - b - cin);
                    cout = a < b || (a == b && cin);  // borrow out
                } else {
                    if (op == CarryOp::Mad) {
                        const T p = in.mode == uint8_t(MulMode::Hi) ? mul_hi_int<T>(T(a), T(b)) : T(U(a * b));
                        a = static_cast<U>(p);
                        b = static_cast<U>(read<T>(in.src[2], w, l));
                    }
                    const U s = U(a + b);
                    d = U(s + cin);
                    cout = s < a || d < s;
                }
                write<T>(in.dst[0], w, l, static_cast<T>(d));
                if (in.cc) w.carry = cout ? (w.carry | (1u << l)) : (w.carry & ~(1u << l));
            });
        }
    });
}

}  // namespace

void exec_add_cc(const Instruction& in, WarpExecContext& w, uint32_t mask) { carry_op(in, w, mask, CarryOp::Add, false); }
void exec_sub_cc(const Instruction& in, WarpExecContext& w, uint32_t mask) { carry_op(in, w, mask, CarryOp::Sub, false); }
void exec_mad_cc(const Instruction& in, WarpExecContext& w, uint32_t mask) { carry_op(in, w, mask, CarryOp::Mad, false); }

void exec_addc(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) { carry_op(in, w, mask, CarryOp::Add, true); }
void exec_subc(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) { carry_op(in, w, mask, CarryOp::Sub, true); }
void exec_madc(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) { carry_op(in, w, mask, CarryOp::Mad, true); }

// sad.type d, a, b, c: d = c + |a - b| (the difference taken in the type's signedness).
void exec_sad(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    with_int(in, in.type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        using U = std::make_unsigned_t<T>;
        for_lanes(mask, [&](unsigned l) {
            const T a = read<T>(in.src[0], w, l), b = read<T>(in.src[1], w, l);
            const U diff = a < b ? U(U(b) - U(a)) : U(U(a) - U(b));
            write<T>(in.dst[0], w, l, static_cast<T>(U(U(read<T>(in.src[2], w, l)) + diff)));
        });
    });
}

}  // namespace stacksim::core::ops
