// SPDX-License-Identifier: Apache-2.0
// The opcode table: one row per base PTX opcode. Adding an instruction = one row + one function.
#pragma once
#include <string_view>

#include "core/exec_context.h"
#include "core/instruction.h"

namespace stacksim::core {

/// Semantic function of an opcode: runs the lanes of `mask` (guard already applied).
using ExecFn = void (*)(const Instruction&, WarpExecContext&, uint32_t mask, ExecResult&);

/// Operand syntax of an opcode; tells the front end how to parse and check the operands.
enum class OpForm : uint8_t {
    Alu,      ///< d, a, ... : one destination and `num_src` sources of the instruction type
    Setp,     ///< p[|q], a, b [, c]   (c only with .and/.or/.xor)
    Selp,     ///< d, a, b, c          (c is a predicate)
    Cvt,      ///< d, a                (two types: destination then source)
    Set,      ///< d, a, b [, c]       (two types: destination then compare type)
    Cvta,     ///< d, a
    Load,     ///< d | {d0, ...}, [addr]
    Store,    ///< [addr], a | {a0, ...}      (src[0] = address, src[1] = value)
    Atomic,   ///< d, [addr], b [, c]  (src[0] = address; c only for cas)
    Reduce,   ///< [addr], b           (src[0] = address)
    Branch,   ///< label
    Plain,    ///< no operands (ret, exit, membar, fence)
    Barrier,  ///< a [, b]
    Shfl,     ///< d[|p], a, b, c, membermask
    Vote,     ///< d, a, membermask
    Match,    ///< d[|p], a, membermask   (a of the instruction type)
    Redux,    ///< d, a, membermask       (a of the instruction type)
    Source,   ///< a                      (one source of the instruction type, no destination)
    Tex,      ///< {d0, d1, d2, d3}, [handle, {coords}]   (two types: result, coordinate)
    BarRed,   ///< d, a [, b], {!}c       (bar.red: d of the instruction type, c a predicate)
    Video,    ///< d, a, b, c             (three types: d, a, b; all 32-bit words)
    Call,     ///< [(ret),] func|%reg [, (args)] [, prototype]  (parsed by the front end itself)
};

/// Modifier families an opcode accepts (OpInfo::mods); anything else is a parse error.
enum OpMod : uint32_t {
    kModRound = 1u << 0,     ///< .rn .rz .rm .rp
    kModIntRound = 1u << 1,  ///< .rni .rzi .rmi .rpi
    kModFtz = 1u << 2,       ///< .ftz
    kModSat = 1u << 3,       ///< .sat (floats; integers only with kModSatInt)
    kModSatInt = 1u << 4,    ///< .sat allowed on .s32
    kModApprox = 1u << 5,    ///< .approx .full
    kModMul = 1u << 6,       ///< .lo .hi .wide
    kModCmp = 1u << 7,       ///< comparison (.eq ... .nan)
    kModBool = 1u << 8,      ///< .and .or .xor combine
    kModSpace = 1u << 9,     ///< .global .shared .param (+ .to for cvta)
    kModVec = 1u << 10,      ///< .v2 .v4
    kModCache = 1u << 11,    ///< .ca .cg .cs .lu .cv .wb .wt .nc .volatile .L1::x .L2::x (ignored)
    kModSem = 1u << 12,      ///< .relaxed .acquire .release .acq_rel .sc .cta .gpu .sys (ignored)
    kModAtom = 1u << 13,     ///< .add .min .max .exch .cas .inc .dec .and .or .xor
    kModUni = 1u << 14,      ///< .uni
    kModSync = 1u << 15,     ///< .sync .aligned (ignored)
    kModShf = 1u << 16,      ///< .l .r .wrap .clamp
    kModShfl = 1u << 17,     ///< .up .down .bfly .idx
    kModVote = 1u << 18,     ///< .all .any .uni .ballot
    kModAny = 1u << 19,      ///< any modifier accepted and ignored (membar, fence)
    kModLoHi = 1u << 20,     ///< .lo .hi only (mul24/mad24)
    kModShiftAmt = 1u << 21, ///< .shiftamt (bfind; sets Instruction::mode = 1)
    kModNaN = 1u << 22,      ///< .NaN (min/max of 16-bit floats; sets Instruction::mode = 1)
    kModTexGeom = 1u << 23,  ///< .1d .2d .3d .a1d .a2d .cube (tex; Instruction::mode = index + 1)
    kModCC = 1u << 24,       ///< .cc (writes the carry flag; Instruction::cc)
    kModBarRed = 1u << 25,   ///< .popc .and .or (bar.red; Instruction::mode = core::BarRedOp)
    kModVideo = 1u << 26,    ///< .add (SIMD video accumulate; Instruction::mode |= kVideoAdd) and .sat
};

/// Bit of DataType `t` in OpInfo::types.
constexpr uint32_t type_bit(DataType t) { return 1u << static_cast<unsigned>(t); }

/// One opcode-table row.
struct OpInfo {
    std::string_view name;  ///< base opcode as written in PTX ("add", "ld", "bar")
    UnitClass unit;
    ControlKind control;
    ExecFn exec;
    OpForm form;            ///< operand syntax (front end)
    uint8_t num_src;        ///< OpForm::Alu: number of sources
    uint32_t types;         ///< accepted instruction types (type_bit mask; 0 = no type)
    uint32_t mods;          ///< accepted modifier families (OpMod mask)
};

/// The row for base opcode `name`, or nullptr when unsupported.
const OpInfo* find_op(std::string_view name);

}  // namespace stacksim::core
