// SPDX-License-Identifier: Apache-2.0
// Internal helpers of the semantic functions: typed register access, lane loops, dispatch.
#pragma once
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "core/exec_context.h"
#include "core/functional_executor.h"
#include "core/instruction.h"
#include "core/op_table.h"

namespace stacksim::core::ops {

/// Carries a C++ type through a generic lambda: `[&](auto tag) { using T = typename decltype(tag)::type; }`.
template <class T> struct Tag { using type = T; };

template <class T> constexpr bool kIsFloat = std::is_floating_point_v<T>;

/// Interprets raw register bits as a value of type T (integers truncate to T's width).
template <class T> inline T from_bits(uint64_t b) {
    if constexpr (std::is_same_v<T, float>) {
        uint32_t u = static_cast<uint32_t>(b);
        float f;
        std::memcpy(&f, &u, 4);
        return f;
    } else if constexpr (std::is_same_v<T, double>) {
        double d;
        std::memcpy(&d, &b, 8);
        return d;
    } else {
        return static_cast<T>(b);
    }
}

/// Raw register bits of `v`, zero-extended from T's width.
template <class T> inline uint64_t to_bits(T v) {
    if constexpr (std::is_same_v<T, float>) {
        uint32_t u;
        std::memcpy(&u, &v, 4);
        return u;
    } else if constexpr (std::is_same_v<T, double>) {
        uint64_t u;
        std::memcpy(&u, &v, 8);
        return u;
    } else if constexpr (std::is_same_v<T, bool>) {
        return v ? 1 : 0;
    } else {
        return static_cast<uint64_t>(static_cast<std::make_unsigned_t<T>>(v));
    }
}

/// Throws ExecError "FILE:LINE: message 'instruction text'".
[[noreturn]] void fail(const Instruction& inst, const std::string& msg);

/// Value of a special register for `lane`.
uint64_t special_value(SpecialReg s, const WarpExecContext& w, unsigned lane);
/// The special registers added for real CUDA code (%lanemask_*, %globaltimer, %envreg*, ...;
/// core/ops_warp.cpp).
uint64_t special_value_ext(SpecialReg s, const WarpExecContext& w, unsigned lane);

/// Raw bits of a Reg / Imm / Special operand for `lane`.
inline uint64_t read_raw(const Operand& op, const WarpExecContext& w, unsigned lane) {
    if (__builtin_expect(op.kind == Operand::Kind::Reg, 1)) return w.regs[op.reg * kWarpSize + lane];
    if (op.kind == Operand::Kind::Imm) return op.imm;
    return special_value(op.special, w, lane);
}

/// Fused multiply-add with a single rounding; uses the CPU's FMA instruction when present
/// (libm's software fma is an order of magnitude slower).
float fused_mul_add(float a, float b, float c);
double fused_mul_add(double a, double b, double c);

/// Typed read of a source operand.
template <class T> inline T read(const Operand& op, const WarpExecContext& w, unsigned lane) {
    return from_bits<T>(read_raw(op, w, lane));
}

/// Predicate read (0/1 storage, `!%p` honoured).
inline bool read_pred(const Operand& op, const WarpExecContext& w, unsigned lane) {
    return ((read_raw(op, w, lane) & 1) != 0) != op.negate;
}

/// Typed write of a destination register (zero-extended from T's width).
template <class T> inline void write(const Operand& d, WarpExecContext& w, unsigned lane, T v) {
    w.regs[d.reg * kWarpSize + lane] = to_bits<T>(v);
}

/// Calls f(lane) for each set bit of `mask`, lowest lane first.
template <class F> inline void for_lanes(uint32_t mask, F&& f) {
    while (mask) {
        unsigned lane = static_cast<unsigned>(__builtin_ctz(mask));
        mask &= mask - 1;
        f(lane);
    }
}

/// Integer type dispatch (.b types act as unsigned).
template <class F> inline void with_int(const Instruction& inst, DataType t, F&& f) {
    switch (t) {
    case DataType::B8: case DataType::U8: return f(Tag<uint8_t>{});
    case DataType::B16: case DataType::U16: return f(Tag<uint16_t>{});
    case DataType::B32: case DataType::U32: return f(Tag<uint32_t>{});
    case DataType::B64: case DataType::U64: return f(Tag<uint64_t>{});
    case DataType::S8: return f(Tag<int8_t>{});
    case DataType::S16: return f(Tag<int16_t>{});
    case DataType::S32: return f(Tag<int32_t>{});
    case DataType::S64: return f(Tag<int64_t>{});
    default: fail(inst, "unsupported integer type");
    }
}

/// Integer or float type dispatch.
template <class F> inline void with_num(const Instruction& inst, DataType t, F&& f) {
    if (t == DataType::F32) return f(Tag<float>{});
    if (t == DataType::F64) return f(Tag<double>{});
    with_int(inst, t, f);
}

/// Float type dispatch.
template <class F> inline void with_float(const Instruction& inst, DataType t, F&& f) {
    if (t == DataType::F32) return f(Tag<float>{});
    if (t == DataType::F64) return f(Tag<double>{});
    fail(inst, "unsupported float type");
}

/// Flushes a subnormal f32 to a zero of the same sign (.ftz); other types unchanged.
template <class T> inline T flush(T v) {
    if constexpr (std::is_same_v<T, float>) {
        if (std::fpclassify(v) == FP_SUBNORMAL) return std::signbit(v) ? -0.0f : 0.0f;
    }
    return v;
}

/// fenv rounding mode of a PTX rounding modifier (.rn and none -> nearest).
inline int fe_mode(uint8_t r) {
    switch (static_cast<RoundMode>(r)) {
    case RoundMode::Rz: case RoundMode::Rzi: return FE_TOWARDZERO;
    case RoundMode::Rm: case RoundMode::Rmi: return FE_DOWNWARD;
    case RoundMode::Rp: case RoundMode::Rpi: return FE_UPWARD;
    default: return FE_TONEAREST;
    }
}

/// Evaluates `op()` (a float computation) under rounding mode `r`. The volatile result keeps
/// the computation between the two fesetround calls.
template <class T, class Op> inline T rounded(uint8_t r, Op&& op) {
    int m = fe_mode(r);
    if (m == FE_TONEAREST) return op();
    std::fesetround(m);
    volatile T v = op();
    std::fesetround(FE_TONEAREST);
    return v;
}

/// Applies .ftz to a float result and .sat (clamp to [0, 1], NaN -> 0).
template <class T> inline T finish_float(const Instruction& inst, T v) {
    if (inst.ftz) v = flush(v);
    if (inst.sat) {
        if (std::isnan(v)) return T(0);
        if (v < T(0)) return T(0);
        if (v > T(1)) return T(1);
    }
    return v;
}

/// Resolved memory location of one lane: shared offset or global address.
struct MemRef {
    bool shared;
    /// Local memory: bytes between a thread's consecutive 32-bit words (0: not local). A
    /// wider access is read and written word by word. (16 bytes in all: passed in registers.)
    uint32_t word_stride;
    uint64_t addr;
};

/// Address of a lane's Addr operand (base register + offset), resolved for `inst.space`:
/// generic addresses inside the shared window become shared offsets. Checks alignment to
/// `align` and shared bounds for `bytes` bytes.
MemRef resolve_address(const Instruction& inst, const Operand& a, const WarpExecContext& w,
                       unsigned lane, unsigned bytes, unsigned align);

/// Reads / writes `bytes` at a resolved location.
void mem_read(const Instruction& inst, WarpExecContext& w, MemRef m, void* dst, unsigned bytes);
void mem_write(const Instruction& inst, WarpExecContext& w, MemRef m, const void* src,
               unsigned bytes);

}  // namespace stacksim::core::ops

namespace stacksim::core::ops {
// Semantic functions, one per opcode-table row (see core/op_table.cpp).
#define STACKSIM_OP(fn) void fn(const Instruction&, WarpExecContext&, uint32_t, ExecResult&)
// ops_arith.cpp
STACKSIM_OP(exec_add); STACKSIM_OP(exec_sub); STACKSIM_OP(exec_mul); STACKSIM_OP(exec_mad);
STACKSIM_OP(exec_mul24); STACKSIM_OP(exec_mad24); STACKSIM_OP(exec_fma); STACKSIM_OP(exec_div);
STACKSIM_OP(exec_rem); STACKSIM_OP(exec_min); STACKSIM_OP(exec_max); STACKSIM_OP(exec_neg);
STACKSIM_OP(exec_abs); STACKSIM_OP(exec_copysign);
// ops_sfu.cpp
STACKSIM_OP(exec_sqrt); STACKSIM_OP(exec_rsqrt); STACKSIM_OP(exec_rcp); STACKSIM_OP(exec_ex2);
STACKSIM_OP(exec_lg2); STACKSIM_OP(exec_sin); STACKSIM_OP(exec_cos); STACKSIM_OP(exec_tanh);
// ops_logic.cpp
STACKSIM_OP(exec_and); STACKSIM_OP(exec_or); STACKSIM_OP(exec_xor); STACKSIM_OP(exec_not);
STACKSIM_OP(exec_cnot); STACKSIM_OP(exec_shl); STACKSIM_OP(exec_shr); STACKSIM_OP(exec_popc);
STACKSIM_OP(exec_clz); STACKSIM_OP(exec_brev); STACKSIM_OP(exec_bfind); STACKSIM_OP(exec_bfe); STACKSIM_OP(exec_bfi);
STACKSIM_OP(exec_shf); STACKSIM_OP(exec_prmt); STACKSIM_OP(exec_lop3);
// ops_compare.cpp
STACKSIM_OP(exec_setp); STACKSIM_OP(exec_set); STACKSIM_OP(exec_selp); STACKSIM_OP(exec_mov);
// ops_convert.cpp
STACKSIM_OP(exec_cvt); STACKSIM_OP(exec_cvta);
// ops_memory.cpp
STACKSIM_OP(exec_ld); STACKSIM_OP(exec_st); STACKSIM_OP(exec_atom); STACKSIM_OP(exec_red);
// ops_control.cpp
STACKSIM_OP(exec_bra); STACKSIM_OP(exec_exit); STACKSIM_OP(exec_nop); STACKSIM_OP(exec_shfl);
STACKSIM_OP(exec_vote); STACKSIM_OP(exec_activemask); STACKSIM_OP(exec_trap);
// ops_half.cpp: the 16-bit float types, reached from the generic functions.
enum class HalfOp : uint8_t { Add, Sub, Mul, Fma, Min, Max, Neg, Abs };
/// .f16 .f16x2 .bf16 .bf16x2
bool is_half_type(DataType t);
void exec_half_arith(const Instruction& in, WarpExecContext& w, uint32_t mask, HalfOp op);
void exec_half_compare(const Instruction& in, WarpExecContext& w, uint32_t mask, bool setp);
void exec_half_cvt(const Instruction& in, WarpExecContext& w, uint32_t mask);
// ops_texture.cpp
STACKSIM_OP(exec_tex);
// ops_carry.cpp: carry-flag arithmetic (add/sub/mad with .cc reach it from exec_add/sub/mad)
STACKSIM_OP(exec_addc); STACKSIM_OP(exec_subc); STACKSIM_OP(exec_madc); STACKSIM_OP(exec_sad);
void exec_add_cc(const Instruction&, WarpExecContext&, uint32_t mask);
void exec_sub_cc(const Instruction&, WarpExecContext&, uint32_t mask);
void exec_mad_cc(const Instruction&, WarpExecContext&, uint32_t mask);
// ops_video.cpp
STACKSIM_OP(exec_vadd4); STACKSIM_OP(exec_vsub4); STACKSIM_OP(exec_vavrg4); STACKSIM_OP(exec_vabsdiff4);
STACKSIM_OP(exec_vmin4); STACKSIM_OP(exec_vmax4); STACKSIM_OP(exec_vadd2); STACKSIM_OP(exec_vsub2);
STACKSIM_OP(exec_vavrg2); STACKSIM_OP(exec_vabsdiff2); STACKSIM_OP(exec_vmin2); STACKSIM_OP(exec_vmax2);
// ops_barrier.cpp
STACKSIM_OP(exec_bar_red);
// ops_call.cpp
STACKSIM_OP(exec_call);
// ops_warp.cpp
STACKSIM_OP(exec_match); STACKSIM_OP(exec_redux); STACKSIM_OP(exec_nanosleep); STACKSIM_OP(exec_bmsk);
#undef STACKSIM_OP
}  // namespace stacksim::core::ops
