// SPDX-License-Identifier: Apache-2.0
// Bitwise and bit-field operations: and or xor not cnot shl shr popc clz brev bfe bfi shf prmt lop3.
#include <algorithm>

#include "core/ops_common.h"

namespace stacksim::core::ops {
namespace {

/// d = op(a, b) on predicates (0/1, `!%p` honoured) or on the unsigned bits of the type.
template <class Op> inline void bitop2(const Instruction& in, WarpExecContext& w, uint32_t mask, Op&& op) {
    if (in.type == DataType::Pred) {
        for_lanes(mask, [&](unsigned l) {
            bool r = (op(unsigned(read_pred(in.src[0], w, l)), unsigned(read_pred(in.src[1], w, l))) & 1u) != 0;
            write<bool>(in.dst[0], w, l, r);
        });
        return;
    }
    with_int(in, in.type, [&](auto tag) {
        using T = std::make_unsigned_t<typename decltype(tag)::type>;
        for_lanes(mask, [&](unsigned l) {
            write<T>(in.dst[0], w, l, T(op(read<T>(in.src[0], w, l), read<T>(in.src[1], w, l))));
        });
    });
}

/// Unsigned unary over the type's bits: d = op(a) with a result of type R (T when void).
template <class Op> inline void bitop1(const Instruction& in, WarpExecContext& w, uint32_t mask, Op&& op) {
    with_int(in, in.type, [&](auto tag) {
        using T = std::make_unsigned_t<typename decltype(tag)::type>;
        for_lanes(mask, [&](unsigned l) {
            auto r = op(read<T>(in.src[0], w, l));
            write<decltype(r)>(in.dst[0], w, l, r);
        });
    });
}

template <class T> inline T reverse_bits(T v) {
    T r = 0;
    for (unsigned i = 0; i < 8 * sizeof(T); ++i, v >>= 1) r = T((r << 1) | (v & 1));
    return r;
}

}  // namespace

void exec_and(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    bitop2(in, w, mask, [](auto a, auto b) { return a & b; });
}
void exec_or(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    bitop2(in, w, mask, [](auto a, auto b) { return a | b; });
}
void exec_xor(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    bitop2(in, w, mask, [](auto a, auto b) { return a ^ b; });
}

void exec_not(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    if (in.type == DataType::Pred) {
        for_lanes(mask, [&](unsigned l) { write<bool>(in.dst[0], w, l, !read_pred(in.src[0], w, l)); });
        return;
    }
    bitop1(in, w, mask, [](auto a) { return decltype(a)(~a); });
}

void exec_cnot(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    bitop1(in, w, mask, [](auto a) { return decltype(a)(a == 0 ? 1 : 0); });
}

// Shift amounts are unsigned 32-bit; amounts >= the width give 0 (or the sign for shr.s).
void exec_shl(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    with_int(in, in.type, [&](auto tag) {
        using T = std::make_unsigned_t<typename decltype(tag)::type>;
        for_lanes(mask, [&](unsigned l) {
            uint32_t n = read<uint32_t>(in.src[1], w, l);
            T a = read<T>(in.src[0], w, l);
            write<T>(in.dst[0], w, l, n >= 8 * sizeof(T) ? T(0) : T(uint64_t(a) << n));
        });
    });
}

void exec_shr(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    with_int(in, in.type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        for_lanes(mask, [&](unsigned l) {
            uint32_t n = read<uint32_t>(in.src[1], w, l);
            T a = read<T>(in.src[0], w, l);
            T r;
            if (n < 8 * sizeof(T)) r = T(a >> n);
            else if constexpr (std::is_signed_v<T>) r = T(a >> (8 * sizeof(T) - 1));
            else r = T(0);
            write<T>(in.dst[0], w, l, r);
        });
    });
}

void exec_popc(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    bitop1(in, w, mask, [](auto a) { return uint32_t(__builtin_popcountll(a)); });
}

void exec_clz(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    bitop1(in, w, mask, [](auto a) {
        constexpr unsigned bits = 8 * sizeof(a);
        return uint32_t(a == 0 ? bits : unsigned(__builtin_clzll(a)) - (64 - bits));
    });
}

void exec_brev(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    bitop1(in, w, mask, [](auto a) { return reverse_bits(a); });
}

// bfind[.shiftamt] d, a: bit position of the most significant non-sign bit (0xFFFFFFFF when
// none); .shiftamt returns the left shift that moves it to the top instead.
void exec_bfind(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    with_int(in, in.type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        using UT = std::make_unsigned_t<T>;
        constexpr unsigned msb = 8 * sizeof(T) - 1;
        for_lanes(mask, [&](unsigned l) {
            T a = read<T>(in.src[0], w, l);
            UT u = UT(a);
            if constexpr (std::is_signed_v<T>)
                if (a < 0) u = UT(~u);
            uint32_t d = 0xFFFFFFFFu;
            if (u != 0) {
                unsigned pos = 63 - unsigned(__builtin_clzll(uint64_t(u)));
                d = in.mode ? msb - pos : pos;
            }
            write<uint32_t>(in.dst[0], w, l, d);
        });
    });
}

// bfe d, a, pos, len: extracts len bits at pos, sign-extended from bit pos+len-1 for .s types.
void exec_bfe(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    with_int(in, in.type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        using UT = std::make_unsigned_t<T>;
        constexpr unsigned msb = 8 * sizeof(T) - 1;
        for_lanes(mask, [&](unsigned l) {
            UT a = read<UT>(in.src[0], w, l);
            unsigned pos = read<uint32_t>(in.src[1], w, l) & 0xFF;
            unsigned len = read<uint32_t>(in.src[2], w, l) & 0xFF;
            UT sbit = 0;
            if (std::is_signed_v<T> && len != 0) sbit = (a >> std::min(pos + len - 1, msb)) & 1;
            UT d = 0;
            for (unsigned i = 0; i <= msb; ++i) {
                UT bit = (i < len && pos + i <= msb) ? UT((a >> (pos + i)) & 1) : sbit;
                d = UT(d | UT(bit << i));
            }
            write<UT>(in.dst[0], w, l, d);
        });
    });
}

// bfi f, a, b, pos, len: b with len bits at pos replaced by the low bits of a.
void exec_bfi(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    with_int(in, in.type, [&](auto tag) {
        using T = std::make_unsigned_t<typename decltype(tag)::type>;
        constexpr unsigned msb = 8 * sizeof(T) - 1;
        for_lanes(mask, [&](unsigned l) {
            T a = read<T>(in.src[0], w, l), f = read<T>(in.src[1], w, l);
            unsigned pos = read<uint32_t>(in.src[2], w, l) & 0xFF;
            unsigned len = read<uint32_t>(in.src[3], w, l) & 0xFF;
            for (unsigned i = 0; i < len && pos + i <= msb; ++i) {
                T bit = T(T(1) << (pos + i));
                f = ((a >> i) & 1) ? T(f | bit) : T(f & ~bit);
            }
            write<T>(in.dst[0], w, l, f);
        });
    });
}

// shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: funnel shift of the 64-bit value b:a.
void exec_shf(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    const bool right = in.mode & kShfRight, clamp = in.mode & kShfClamp;
    for_lanes(mask, [&](unsigned l) {
        uint64_t v = (uint64_t(read<uint32_t>(in.src[1], w, l)) << 32) | read<uint32_t>(in.src[0], w, l);
        uint32_t n = read<uint32_t>(in.src[2], w, l);
        n = clamp ? std::min(n, 32u) : (n & 31);
        uint32_t d = right ? uint32_t(v >> n) : uint32_t((v << n) >> 32);
        write<uint32_t>(in.dst[0], w, l, d);
    });
}

// prmt.b32 d, a, b, c (default mode): byte i of d = byte (c[4i+2:4i]) of b:a, sign-replicated
// when c bit 4i+3 is set.
void exec_prmt(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    for_lanes(mask, [&](unsigned l) {
        uint64_t v = (uint64_t(read<uint32_t>(in.src[1], w, l)) << 32) | read<uint32_t>(in.src[0], w, l);
        uint32_t c = read<uint32_t>(in.src[2], w, l), d = 0;
        for (unsigned i = 0; i < 4; ++i) {
            unsigned sel = (c >> (4 * i)) & 0xF;
            uint32_t byte = uint32_t(v >> (8 * (sel & 7))) & 0xFF;
            if (sel & 8) byte = (byte & 0x80) ? 0xFF : 0;
            d |= byte << (8 * i);
        }
        write<uint32_t>(in.dst[0], w, l, d);
    });
}

// lop3.b32 d, a, b, c, lut: arbitrary 3-input logic function given by its truth table.
void exec_lop3(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    for_lanes(mask, [&](unsigned l) {
        uint32_t a = read<uint32_t>(in.src[0], w, l), b = read<uint32_t>(in.src[1], w, l);
        uint32_t c = read<uint32_t>(in.src[2], w, l), lut = read<uint32_t>(in.src[3], w, l), d = 0;
        for (unsigned k = 0; k < 8; ++k)
            if (lut & (1u << k)) d |= ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? c : ~c);
        write<uint32_t>(in.dst[0], w, l, d);
    });
}

}  // namespace stacksim::core::ops
