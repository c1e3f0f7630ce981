// SPDX-License-Identifier: Apache-2.0
// Kernel IR: one decoded instruction, shared by the PTX front end, the functional
// executor and the SM timing model.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>

namespace stacksim::core {

/// PTX fundamental types; sizes via type_bytes().
enum class DataType : uint8_t {
    None, B8, B16, B32, B64, U8, U16, U32, U64, S8, S16, S32, S64, F16, F32, F64, Pred,
    F16x2, BF16, BF16x2  ///< packed and brain-float 16-bit floats (core/ops_half.cpp)
};
/// Size of a value of `t` in bytes (Pred counts as 1, None as 0).
unsigned type_bytes(DataType t);

/// State space of a memory access.
enum class StateSpace : uint8_t { None, Generic, Global, Shared, Param, Local, Const };

/// Which SM pipeline executes the instruction (its issue limit and latency come from config).
enum class UnitClass : uint8_t { Alu, Fp64, Sfu, LdSt, Control };

/// What the SM's control logic must do besides executing the instruction.
enum class ControlKind : uint8_t {
    None, Branch, Barrier, Exit,
    Call,    ///< call: enters a device function (core/call_frames.h)
    Return,  ///< ret inside a device function
};

/// Special registers readable with mov/cvt.
enum class SpecialReg : uint8_t {
    None, TidX, TidY, TidZ, NtidX, NtidY, NtidZ, CtaidX, CtaidY, CtaidZ,
    NctaidX, NctaidY, NctaidZ, LaneId, WarpId, NWarpId, SmId, Clock, Clock64,
    // Warp and special registers of core/ops_warp.cpp (special_value_ext).
    LanemaskEq, LanemaskLt, LanemaskLe, LanemaskGt, LanemaskGe, GlobalTimer, GlobalTimerLo,
    GlobalTimerHi, NSmId, GridId, DynamicSmemSize, TotalSmemSize, ClockHi,
    EnvReg0,  ///< %envreg0; %envregN is EnvReg0 + N (N < 32)
    EnvReg31 = EnvReg0 + 31
};

/// setp/set comparison, stored in Instruction::cmp. lo/ls/hi/hs always compare unsigned;
/// the *u forms and num/nan are true when an operand is NaN (float types only).
enum class CmpOp : uint8_t {
    Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan
};
/// setp/set .and/.or/.xor combine with a third predicate, stored in Instruction::bool_op.
enum class BoolOp : uint8_t { None, And, Or, Xor };
/// Rounding modifier, stored in Instruction::rounding (None = not written).
enum class RoundMode : uint8_t { None, Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi };
/// mul/mad/mul24/mad24 result half, stored in Instruction::mode.
enum class MulMode : uint8_t { Lo, Hi, Wide };
/// atom/red operation, stored in Instruction::mode.
enum class AtomOp : uint8_t { Add, Min, Max, Exch, Cas, Inc, Dec, And, Or, Xor };
/// shfl.sync mode, stored in Instruction::mode.
enum class ShflMode : uint8_t { Idx, Up, Down, Bfly };
/// vote.sync mode, stored in Instruction::mode.
enum class VoteMode : uint8_t { All, Any, Uni, Ballot };
/// bar.red reduction, stored in Instruction::mode.
enum class BarRedOp : uint8_t { Popc, And, Or };
/// Instruction::mode bits of the SIMD video instructions (vadd4, vabsdiff2, ...): .add
/// (accumulate instead of merge) and the signedness of the b operand (a's is src_type).
constexpr uint8_t kVideoAdd = 1, kVideoBSigned = 2;
/// Instruction::mode bits of shf (funnel shift).
constexpr uint8_t kShfRight = 1, kShfClamp = 2;
/// Instruction::mode of cvta: 0 = space -> generic, kCvtaToSpace = cvta.to (generic -> space).
constexpr uint8_t kCvtaToSpace = 1;
/// Instruction::mode of ld.param/st.param on a device-function frame (call arguments, return
/// values, a function's formal parameters) instead of the kernel's parameter buffer.
constexpr uint8_t kParamFrame = 1;

constexpr uint16_t kNoReg = 0xFFFF;
constexpr uint32_t kNoTarget = 0xFFFFFFFF;

/// One operand. Registers are dense per-kernel ids (predicates included).
struct Operand {
    enum class Kind : uint8_t { None, Reg, Imm, Special, Addr, Vector };
    Kind kind = Kind::None;
    uint16_t reg = kNoReg;         ///< Reg; Addr base register (kNoReg for [symbol] / [imm])
    SpecialReg special = SpecialReg::None;
    uint8_t vec_len = 0;           ///< Vector: number of registers in vec
    std::array<uint16_t, 4> vec{kNoReg, kNoReg, kNoReg, kNoReg};
    uint64_t imm = 0;              ///< Imm: raw bits (floats as IEEE bits of the instruction type);
                                   ///< Addr: byte offset added to the base (symbol address folded in)
    bool negate = false;           ///< Reg of type pred written as !%p (setp/selp/and.pred sources)
};

struct OpInfo;
struct CallSite;

/// A decoded instruction. The executor owns the meaning of the modifier fields; the timing
/// model reads unit(), control(), the register lists, `space` and `target`.
struct Instruction {
    const OpInfo* info = nullptr;  ///< row of the opcode table (name, unit, exec function)

    // Type and modifiers.
    DataType type = DataType::None;      ///< instruction type (.s32, .f32, ...)
    DataType src_type = DataType::None;  ///< cvt source type; setp compare type lives in `type`
    uint8_t cmp = 0;       ///< setp/set comparison (executor-defined enum)
    uint8_t bool_op = 0;   ///< setp .and/.or/.xor combine (executor-defined)
    uint8_t mode = 0;      ///< mul/mad .lo/.hi/.wide, atom op, rounding... (executor-defined)
    uint8_t rounding = 0;  ///< cvt/float rounding mode (executor-defined)
    bool ftz = false, sat = false, approx = false, uni = false;
    bool cc = false;  ///< .cc: writes the carry flag (add.cc, addc.cc, sub.cc, mad.cc, ...)
    StateSpace space = StateSpace::None;  ///< ld/st/atom/cvta state space
    uint8_t vec = 1;                      ///< ld/st vector width (1, 2, 4)
    uint8_t dst_bytes = 0;  ///< declared width of the destination register(s) in bytes; ld of a
                            ///< narrower signed type sign-extends to this width (ld.s32 -> %rd)

    // Guard predicate: @%p or @!%p.
    uint16_t guard = kNoReg;
    bool guard_negated = false;

    uint8_t num_dst = 0, num_src = 0;
    std::array<Operand, 2> dst{};
    std::array<Operand, 4> src{};

    uint32_t target = kNoTarget;    ///< Branch: index of the target instruction in Kernel::code
    uint32_t reconv_pc = kNoTarget; ///< Branch: immediate post-dominator (kNoTarget = kernel exit)

    /// Registers read (sources, address bases, vector sources, guard) and written; filled by
    /// the front end with Instruction::finalize_registers().
    uint8_t num_reads = 0, num_writes = 0;
    std::array<uint16_t, 10> reads{};
    std::array<uint16_t, 4> writes{};

    uint32_t line = 0;     ///< line in the source file
    /// CUDA source position from the last `.loc` before the instruction (-lineinfo / -G
    /// builds): Kernel::source_files[src_file], line src_line; 0 = none.
    uint32_t src_line = 0;
    uint16_t src_file = 0;
    std::string text;      ///< the instruction as written, for errors and watch logs
    std::shared_ptr<const std::string> file;  ///< source file name, for run-time errors
    std::shared_ptr<const CallSite> call;     ///< call: arguments, callee (core/call_site.h)

    UnitClass unit() const;
    ControlKind control() const;
    const char* name() const;  ///< base opcode ("add", "ld", ...)
    /// Fills reads/writes from the operands and guard; call once after decoding.
    void finalize_registers();
};

}  // namespace stacksim::core
