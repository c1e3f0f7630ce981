// SPDX-License-Identifier: Apache-2.0
// The opcode table: name, pipeline, control kind, semantic function, operand syntax, types.
#include "core/op_table.h"

#include <array>

#include "core/ops_common.h"

namespace stacksim::core {
namespace {

using namespace ops;
using D = DataType;
using U = UnitClass;
using C = ControlKind;
using F = OpForm;

constexpr uint32_t kI16 = type_bit(D::U16) | type_bit(D::S16);
constexpr uint32_t kI32 = type_bit(D::U32) | type_bit(D::S32);
constexpr uint32_t kI64 = type_bit(D::U64) | type_bit(D::S64);
constexpr uint32_t kInt = kI16 | kI32 | kI64;
constexpr uint32_t kSigned = type_bit(D::S16) | type_bit(D::S32) | type_bit(D::S64);
constexpr uint32_t kBits = type_bit(D::B16) | type_bit(D::B32) | type_bit(D::B64);
constexpr uint32_t kB3264 = type_bit(D::B32) | type_bit(D::B64);
constexpr uint32_t kF32 = type_bit(D::F32);
constexpr uint32_t kFlt = kF32 | type_bit(D::F64);
constexpr uint32_t kPred = type_bit(D::Pred);
constexpr uint32_t kB32 = type_bit(D::B32);
/// Every type a register can hold (mov, ld/st): 8-bit types only in memory.
constexpr uint32_t kHalf = type_bit(D::F16) | type_bit(D::F16x2) | type_bit(D::BF16) | type_bit(D::BF16x2);
constexpr uint32_t kAll = kInt | kBits | kFlt | kHalf;
constexpr uint32_t kMem = kAll | type_bit(D::U8) | type_bit(D::S8) | type_bit(D::B8);
constexpr uint32_t kAtomT = kI32 | kI64 | kB3264 | kFlt | type_bit(D::B16);  // b16: cas only

constexpr uint32_t kFloatMods = kModRound | kModFtz | kModSat;

// Adding an instruction: one row here + one semantic function (declared in ops_common.h).
constexpr std::array kOps = {
    //     name       unit      control     exec             form        src types                     mods
    OpInfo{"add",     U::Alu,   C::None,    exec_add,        F::Alu,     2, kInt | kFlt | kHalf,                kFloatMods | kModSatInt | kModCC},
    OpInfo{"sub",     U::Alu,   C::None,    exec_sub,        F::Alu,     2, kInt | kFlt | kHalf,                kFloatMods | kModSatInt | kModCC},
    OpInfo{"mul",     U::Alu,   C::None,    exec_mul,        F::Alu,     2, kInt | kFlt | kHalf,                kFloatMods | kModMul},
    OpInfo{"mad",     U::Alu,   C::None,    exec_mad,        F::Alu,     3, kInt | kFlt,                kFloatMods | kModMul | kModCC},
    // Carry arithmetic (core/ops_carry.cpp): CC.CF is per-thread state (WarpExecContext::carry).
    OpInfo{"addc",    U::Alu,   C::None,    exec_addc,       F::Alu,     2, kI32 | kI64,                kModCC},
    OpInfo{"subc",    U::Alu,   C::None,    exec_subc,       F::Alu,     2, kI32 | kI64,                kModCC},
    OpInfo{"madc",    U::Alu,   C::None,    exec_madc,       F::Alu,     3, kI32 | kI64,                kModCC | kModLoHi},
    OpInfo{"sad",     U::Alu,   C::None,    exec_sad,        F::Alu,     3, kInt,                       0},
    OpInfo{"mul24",   U::Alu,   C::None,    exec_mul24,      F::Alu,     2, kI32,                       kModLoHi},
    OpInfo{"mad24",   U::Alu,   C::None,    exec_mad24,      F::Alu,     3, kI32,                       kModLoHi},
    OpInfo{"fma",     U::Alu,   C::None,    exec_fma,        F::Alu,     3, kFlt | kHalf,                       kFloatMods},
    OpInfo{"div",     U::Alu,   C::None,    exec_div,        F::Alu,     2, kInt | kFlt,                kFloatMods | kModApprox},
    OpInfo{"rem",     U::Alu,   C::None,    exec_rem,        F::Alu,     2, kInt,                       0},
    OpInfo{"min",     U::Alu,   C::None,    exec_min,        F::Alu,     2, kInt | kFlt | kHalf,                kModFtz | kModNaN},
    OpInfo{"max",     U::Alu,   C::None,    exec_max,        F::Alu,     2, kInt | kFlt | kHalf,                kModFtz | kModNaN},
    OpInfo{"neg",     U::Alu,   C::None,    exec_neg,        F::Alu,     1, kSigned | kFlt | kHalf,             kModFtz},
    OpInfo{"abs",     U::Alu,   C::None,    exec_abs,        F::Alu,     1, kSigned | kFlt | kHalf,             kModFtz},
    OpInfo{"copysign", U::Alu,  C::None,    exec_copysign,   F::Alu,     2, kFlt,                       0},
    OpInfo{"sqrt",    U::Sfu,   C::None,    exec_sqrt,       F::Alu,     1, kFlt,                       kFloatMods | kModApprox},
    OpInfo{"rsqrt",   U::Sfu,   C::None,    exec_rsqrt,      F::Alu,     1, kFlt,                       kModFtz | kModApprox},
    OpInfo{"rcp",     U::Sfu,   C::None,    exec_rcp,        F::Alu,     1, kFlt,                       kFloatMods | kModApprox},
    OpInfo{"ex2",     U::Sfu,   C::None,    exec_ex2,        F::Alu,     1, kF32,                       kModFtz | kModApprox},
    OpInfo{"lg2",     U::Sfu,   C::None,    exec_lg2,        F::Alu,     1, kF32,                       kModFtz | kModApprox},
    OpInfo{"sin",     U::Sfu,   C::None,    exec_sin,        F::Alu,     1, kF32,                       kModFtz | kModApprox},
    OpInfo{"cos",     U::Sfu,   C::None,    exec_cos,        F::Alu,     1, kF32,                       kModFtz | kModApprox},
    OpInfo{"tanh",    U::Sfu,   C::None,    exec_tanh,       F::Alu,     1, kF32,                       kModApprox},
    OpInfo{"and",     U::Alu,   C::None,    exec_and,        F::Alu,     2, kBits | kPred,              0},
    OpInfo{"or",      U::Alu,   C::None,    exec_or,         F::Alu,     2, kBits | kPred,              0},
    OpInfo{"xor",     U::Alu,   C::None,    exec_xor,        F::Alu,     2, kBits | kPred,              0},
    OpInfo{"not",     U::Alu,   C::None,    exec_not,        F::Alu,     1, kBits | kPred,              0},
    OpInfo{"cnot",    U::Alu,   C::None,    exec_cnot,       F::Alu,     1, kBits,                      0},
    OpInfo{"shl",     U::Alu,   C::None,    exec_shl,        F::Alu,     2, kBits,                      0},
    OpInfo{"shr",     U::Alu,   C::None,    exec_shr,        F::Alu,     2, kBits | kInt,               0},
    OpInfo{"popc",    U::Alu,   C::None,    exec_popc,       F::Alu,     1, kB3264,                     0},
    OpInfo{"clz",     U::Alu,   C::None,    exec_clz,        F::Alu,     1, kB3264,                     0},
    OpInfo{"brev",    U::Alu,   C::None,    exec_brev,       F::Alu,     1, kB3264,                     0},
    OpInfo{"bfind",   U::Alu,   C::None,    exec_bfind,      F::Alu,     1, kI32 | kI64,                kModShiftAmt},
    OpInfo{"bfe",     U::Alu,   C::None,    exec_bfe,        F::Alu,     3, kI32 | kI64,                0},
    OpInfo{"bfi",     U::Alu,   C::None,    exec_bfi,        F::Alu,     4, kB3264,                     0},
    OpInfo{"shf",     U::Alu,   C::None,    exec_shf,        F::Alu,     3, kB32,                       kModShf},
    OpInfo{"prmt",    U::Alu,   C::None,    exec_prmt,       F::Alu,     3, kB32,                       0},
    OpInfo{"lop3",    U::Alu,   C::None,    exec_lop3,       F::Alu,     4, kB32,                       0},
    OpInfo{"setp",    U::Alu,   C::None,    exec_setp,       F::Setp,    0, kInt | kBits | kFlt | kHalf,        kModCmp | kModBool | kModFtz},
    OpInfo{"set",     U::Alu,   C::None,    exec_set,        F::Set,     0, kInt | kBits | kFlt | kHalf,        kModCmp | kModBool | kModFtz},
    OpInfo{"selp",    U::Alu,   C::None,    exec_selp,       F::Selp,    0, kInt | kBits | kFlt,        0},
    OpInfo{"mov",     U::Alu,   C::None,    exec_mov,        F::Alu,     1, kAll | kPred,               0},
    OpInfo{"cvt",     U::Alu,   C::None,    exec_cvt,        F::Cvt,     0, (kMem & ~kBits) | kHalf, kModRound | kModIntRound | kModFtz | kModSat},
    OpInfo{"cvta",    U::Alu,   C::None,    exec_cvta,       F::Cvta,    0, type_bit(D::U32) | type_bit(D::U64), kModSpace},
    OpInfo{"ld",      U::LdSt,  C::None,    exec_ld,         F::Load,    0, kMem,                       kModSpace | kModVec | kModCache | kModSem},
    OpInfo{"st",      U::LdSt,  C::None,    exec_st,         F::Store,   0, kMem,                       kModSpace | kModVec | kModCache | kModSem},
    OpInfo{"atom",    U::LdSt,  C::None,    exec_atom,       F::Atomic,  0, kAtomT,                     kModSpace | kModAtom | kModSem},
    OpInfo{"red",     U::LdSt,  C::None,    exec_red,        F::Reduce,  0, kAtomT,                     kModSpace | kModAtom | kModSem},
    OpInfo{"bra",     U::Control, C::Branch, exec_bra,       F::Branch,  0, 0,                          kModUni},
    OpInfo{"ret",     U::Control, C::Exit,  exec_exit,       F::Plain,   0, 0,                          kModUni},
    OpInfo{"exit",    U::Control, C::Exit,  exec_exit,       F::Plain,   0, 0,                          0},
    // Device functions (core/calls.h): the front end parses call itself and gives a ret
    // inside a .func the "ret.func" row.
    OpInfo{"call",    U::Control, C::Call,  exec_call,       F::Call,    0, 0,                          kModUni},
    OpInfo{"ret.func", U::Control, C::Return, exec_exit,     F::Plain,   0, 0,                          kModUni},
    OpInfo{"trap",    U::Control, C::None,  exec_trap,       F::Plain,   0, 0,                          0},
    OpInfo{"brkpt",   U::Control, C::None,  exec_trap,       F::Plain,   0, 0,                          0},
    OpInfo{"bar",     U::Control, C::Barrier, exec_nop,      F::Barrier, 0, 0,                          kModSync},
    // bar.warp.sync (__syncwarp) is a warp-level no-op, not a CTA barrier; the front end maps
    // "bar.warp" to this row.
    OpInfo{"bar.warp", U::Alu,  C::None,    exec_nop,        F::Barrier, 0, 0,                          kModSync},
    OpInfo{"barrier", U::Control, C::Barrier, exec_nop,      F::Barrier, 0, 0,                          kModSync},
    OpInfo{"membar",  U::Alu,   C::None,    exec_nop,        F::Plain,   0, 0,                          kModAny},
    OpInfo{"fence",   U::Alu,   C::None,    exec_nop,        F::Plain,   0, 0,                          kModAny},
    OpInfo{"prefetch", U::Alu,  C::None,    exec_nop,        F::Plain,   0, 0,                          kModAny},  // a hint: no traffic modelled
    OpInfo{"shfl",    U::Alu,   C::None,    exec_shfl,       F::Shfl,    0, kB32,                       kModSync | kModShfl},
    OpInfo{"vote",    U::Alu,   C::None,    exec_vote,       F::Vote,    0, kB32 | kPred,               kModSync | kModVote},
    OpInfo{"activemask", U::Alu, C::None,   exec_activemask, F::Alu,     0, kB32,                       0},
    // Warp-level instructions of core/ops_warp.cpp; match takes .any/.all (kModVote's names),
    // redux the atomic operation names, bmsk .clamp/.wrap (kModShf's names).
    OpInfo{"match",   U::Alu,   C::None,    exec_match,      F::Match,   0, kB3264,                     kModSync | kModVote},
    OpInfo{"redux",   U::Alu,   C::None,    exec_redux,      F::Redux,   0, kI32 | kB32,                kModSync | kModAtom},
    OpInfo{"nanosleep", U::Alu, C::None,    exec_nanosleep,  F::Source,  0, type_bit(D::U32),           0},
    OpInfo{"tex",     U::LdSt,  C::None,    exec_tex,        F::Tex,     0, kI32 | kF32,                kModTexGeom | kModVec},
    OpInfo{"bar.red", U::Control, C::Barrier, exec_bar_red,  F::BarRed,  0, kPred | type_bit(D::U32), kModSync | kModBarRed},
    OpInfo{"barrier.red", U::Control, C::Barrier, exec_bar_red, F::BarRed, 0, kPred | type_bit(D::U32), kModSync | kModBarRed},
    // SIMD video instructions (core/ops_video.cpp), default selectors only.
    OpInfo{"vadd4",   U::Alu,   C::None,    exec_vadd4,      F::Video,   3, kI32,                       kModSat | kModVideo},
    OpInfo{"vsub4",   U::Alu,   C::None,    exec_vsub4,      F::Video,   3, kI32,                       kModSat | kModVideo},
    OpInfo{"vavrg4",  U::Alu,   C::None,    exec_vavrg4,     F::Video,   3, kI32,                       kModSat | kModVideo},
    OpInfo{"vabsdiff4", U::Alu, C::None,    exec_vabsdiff4,  F::Video,   3, kI32,                       kModSat | kModVideo},
    OpInfo{"vmin4",   U::Alu,   C::None,    exec_vmin4,      F::Video,   3, kI32,                       kModSat | kModVideo},
    OpInfo{"vmax4",   U::Alu,   C::None,    exec_vmax4,      F::Video,   3, kI32,                       kModSat | kModVideo},
    OpInfo{"vadd2",   U::Alu,   C::None,    exec_vadd2,      F::Video,   3, kI32,                       kModSat | kModVideo},
    OpInfo{"vsub2",   U::Alu,   C::None,    exec_vsub2,      F::Video,   3, kI32,                       kModSat | kModVideo},
    OpInfo{"vavrg2",  U::Alu,   C::None,    exec_vavrg2,     F::Video,   3, kI32,                       kModSat | kModVideo},
    OpInfo{"vabsdiff2", U::Alu, C::None,    exec_vabsdiff2,  F::Video,   3, kI32,                       kModSat | kModVideo},
    OpInfo{"vmin2",   U::Alu,   C::None,    exec_vmin2,      F::Video,   3, kI32,                       kModSat | kModVideo},
    OpInfo{"vmax2",   U::Alu,   C::None,    exec_vmax2,      F::Video,   3, kI32,                       kModSat | kModVideo},
    OpInfo{"bmsk",    U::Alu,   C::None,    exec_bmsk,       F::Alu,     2, kB32,                       kModShf},
};

}  // namespace

const OpInfo* find_op(std::string_view name) {
    for (const OpInfo& op : kOps)
        if (op.name == name) return &op;
    return nullptr;
}

}  // namespace stacksim::core
