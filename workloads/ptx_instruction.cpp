// SPDX-License-Identifier: Apache-2.0
// PTX parser: one instruction -- guard, opcode and modifiers, operands, validation.
#include "workloads/ptx_parser_impl.h"

namespace stacksim::workloads::detail {

using core::DataType;
using core::Instruction;
using core::OpForm;
using core::Operand;
using core::StateSpace;

namespace {

constexpr std::string_view kCmpNames[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "lo",  "ls",  "hi",
                                          "hs",  "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
constexpr std::string_view kAtomNames[] = {"add", "min", "max", "exch", "cas", "inc", "dec", "and", "or", "xor"};
constexpr std::string_view kRoundNames[] = {"", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"};
constexpr std::string_view kShflNames[] = {"idx", "up", "down", "bfly"};
constexpr std::string_view kVoteNames[] = {"all", "any", "uni", "ballot"};
constexpr std::string_view kTexGeomNames[] = {"1d", "2d", "3d", "a1d", "a2d", "cube"};
constexpr std::string_view kCacheNames[] = {"ca", "cg", "cs", "lu", "cv", "wb", "wt", "nc", "volatile", "weak", "mmio"};
constexpr std::string_view kSemNames[] = {"relaxed", "acquire", "release", "acq_rel", "sc", "cta", "gpu", "sys", "cluster"};

template <size_t N> int index_of(const std::string_view (&names)[N], std::string_view s) {
    for (size_t i = 0; i < N; ++i)
        if (names[i] == s) return static_cast<int>(i);
    return -1;
}

bool is_float(DataType t) {
    return t == DataType::F16 || t == DataType::F32 || t == DataType::F64 || t == DataType::F16x2 ||
           t == DataType::BF16 || t == DataType::BF16x2;
}

}  // namespace

void PtxParser::parse_instruction(core::Kernel& k) {
    const Token& start = peek();
    Instruction in;
    in.line = start.line;
    in.file = m_file_ptr;
    in.src_file = m_loc_file;
    in.src_line = m_loc_line;
    if (accept('@')) {
        bool neg = accept('!');
        const Token& g = expect_word();
        in.guard = lookup_reg(g);
        if (m_reg_type[in.guard] != DataType::Pred) error(g, "guard is not a predicate register");
        in.guard_negated = neg;
    }
    const Token& op = expect_word();
    size_t dot = op.text.find('.');
    if (op.text.substr(0, 9) == "bar.warp." || op.text == "bar.warp" || op.text.substr(0, 8) == "bar.red.")
        dot = op.text.find('.', 4);
    if (op.text.substr(0, 12) == "barrier.red.") dot = op.text.find('.', 8);
    in.info = core::find_op(op.text.substr(0, dot));
    if (!in.info) error(op, "unsupported instruction");
    if (m_func && in.info->name == "ret") in.info = core::find_op("ret.func");  // returns to the caller
    decode_modifiers(op, dot == std::string_view::npos ? std::string_view() : op.text.substr(dot), in);

    std::vector<RawOperand> ops;
    if (in.info->form == OpForm::Call) {
        parse_call(op, in);
    } else if (!peek().is(';')) {
        while (true) {
            ops.push_back(parse_operand());
            if (accept('|')) {
                ops.back().pipe = true;
                continue;
            }
            if (!accept(',')) break;
        }
    }
    const Token& semi = peek();
    if (!semi.is(';')) error(semi, "expected ',' or ';' after operand but found");
    next();
    if (in.info->form != OpForm::Call) assign_operands(op, ops, in);

    // The instruction as written, whitespace collapsed.
    const char* b = start.text.data();
    const char* e = semi.text.data() + 1;
    for (const char* c = b; c < e; ++c) {
        bool ws = *c == ' ' || *c == '\t' || *c == '\n' || *c == '\r';
        if (ws && (in.text.empty() || in.text.back() == ' ')) continue;
        in.text.push_back(ws ? ' ' : *c);
    }
    in.finalize_registers();
    k.code.push_back(std::move(in));
}

void PtxParser::decode_modifiers(const Token& op, std::string_view mods, Instruction& in) {
    const core::OpInfo& info = *in.info;
    const uint32_t m = info.mods;
    DataType types[3] = {DataType::None, DataType::None, DataType::None};
    unsigned ntypes = 0;
    bool have_mode = false, have_cmp = false, have_space = false;
    while (!mods.empty()) {
        size_t end = mods.find('.', 1);
        std::string_view mod = mods.substr(1, end == std::string_view::npos ? std::string_view::npos : end - 1);
        mods = end == std::string_view::npos ? std::string_view() : mods.substr(end);
        if (mod.empty()) error(op, "malformed instruction");
        int i;
        if (DataType t = parse_type_name(mod); t != DataType::None) {
            if (ntypes == (info.form == OpForm::Video ? 3u : 2u)) error(op, "too many type modifiers in");
            types[ntypes++] = t;
        } else if ((m & (core::kModMul | core::kModLoHi)) && (mod == "lo" || mod == "hi" || (mod == "wide" && (m & core::kModMul)))) {
            in.mode = uint8_t(mod == "lo" ? core::MulMode::Lo : mod == "hi" ? core::MulMode::Hi : core::MulMode::Wide);
            have_mode = true;
        } else if ((m & core::kModCmp) && (i = index_of(kCmpNames, mod)) >= 0 && !have_cmp) {
            in.cmp = uint8_t(i);
            have_cmp = true;
        } else if ((m & core::kModBool) && (mod == "and" || mod == "or" || mod == "xor")) {
            in.bool_op = uint8_t(mod == "and" ? core::BoolOp::And : mod == "or" ? core::BoolOp::Or : core::BoolOp::Xor);
        } else if ((m & core::kModAtom) && (i = index_of(kAtomNames, mod)) >= 0 && !have_mode) {
            in.mode = uint8_t(i);
            have_mode = true;
        } else if (((m & core::kModRound) && (i = index_of(kRoundNames, mod)) >= 1 && i <= 4) ||
                   ((m & core::kModIntRound) && (i = index_of(kRoundNames, mod)) >= 5)) {
            in.rounding = uint8_t(i);
        } else if ((m & core::kModFtz) && mod == "ftz") {
            in.ftz = true;
        } else if ((m & (core::kModSat | core::kModSatInt)) && mod == "sat") {
            in.sat = true;
        } else if ((m & core::kModApprox) && (mod == "approx" || mod == "full")) {
            in.approx = true;
        } else if ((m & core::kModSpace) && !have_space &&
                   (mod == "global" || mod == "shared" || mod == "shared::cta" || mod == "param" ||
                    mod == "local" || mod == "const")) {
            have_space = true;
            in.space = mod == "global" ? StateSpace::Global : mod == "param" ? StateSpace::Param
                     : mod == "local" ? StateSpace::Local : mod == "const" ? StateSpace::Const : StateSpace::Shared;
        } else if ((m & core::kModSpace) && info.form == OpForm::Cvta && mod == "to") {
            in.mode = core::kCvtaToSpace;
        } else if ((m & core::kModVec) && (mod == "v2" || mod == "v4")) {
            in.vec = mod == "v2" ? 2 : 4;
        } else if ((m & core::kModCache) && (index_of(kCacheNames, mod) >= 0 || mod.find("::") != std::string_view::npos)) {
        } else if ((m & core::kModSem) && index_of(kSemNames, mod) >= 0) {
        } else if ((m & core::kModUni) && mod == "uni") {
            in.uni = true;
        } else if ((m & core::kModVote) && (i = index_of(kVoteNames, mod)) >= 0 && !have_mode) {
            in.mode = uint8_t(i);
            have_mode = true;
        } else if ((m & core::kModSync) && (mod == "sync" || mod == "aligned")) {
        } else if ((m & core::kModShf) && (mod == "l" || mod == "r" || mod == "wrap" || mod == "clamp")) {
            if (mod == "r") in.mode |= core::kShfRight;
            if (mod == "clamp") in.mode |= core::kShfClamp;
        } else if ((m & core::kModShfl) && (i = index_of(kShflNames, mod)) >= 0 && !have_mode) {
            in.mode = uint8_t(i);
            have_mode = true;
        } else if ((m & core::kModTexGeom) && (i = index_of(kTexGeomNames, mod)) >= 0 && !have_mode) {
            in.mode = uint8_t(i + 1);
            have_mode = true;
        } else if ((m & core::kModNaN) && mod == "NaN") {
            in.mode = 1;
        } else if ((m & core::kModCC) && mod == "cc") {
            in.cc = true;
        } else if ((m & core::kModBarRed) && (mod == "popc" || mod == "and" || mod == "or") && !have_mode) {
            in.mode = uint8_t(mod == "popc" ? core::BarRedOp::Popc : mod == "and" ? core::BarRedOp::And : core::BarRedOp::Or);
            have_mode = true;
        } else if ((m & core::kModVideo) && mod == "add") {
            in.mode |= core::kVideoAdd;
        } else if ((m & core::kModShiftAmt) && mod == "shiftamt") {
            in.mode = 1;
        } else if (m & core::kModAny) {
        } else {
            error(op.line, "unsupported modifier ." + std::string(mod) + " in", op.text);
        }
    }

    // Types.
    const unsigned want = info.form == OpForm::Video ? 3
                          : (info.form == OpForm::Cvt || info.form == OpForm::Set || info.form == OpForm::Tex) ? 2
                          : info.types ? 1 : 0;
    if (ntypes != want)
        error(op, ntypes < want ? "missing type modifier in" : "unexpected type modifier in");
    auto allowed = [&](DataType t, uint32_t mask) {
        if (!(mask & core::type_bit(t))) error(op, "unsupported type for this instruction in");
    };
    if (info.form == OpForm::Set) {
        allowed(types[0], core::type_bit(DataType::U32) | core::type_bit(DataType::S32) | core::type_bit(DataType::F32) |
                              core::type_bit(DataType::F16) | core::type_bit(DataType::F16x2) |
                              core::type_bit(DataType::BF16) | core::type_bit(DataType::BF16x2));
        allowed(types[1], info.types);
        in.type = types[1];
        in.src_type = types[0];
    } else {
        for (unsigned t = 0; t < ntypes; ++t) allowed(types[t], info.types);
        in.type = types[0];
        if (info.form == OpForm::Cvt || info.form == OpForm::Tex || info.form == OpForm::Video) in.src_type = types[1];
        if (info.form == OpForm::Video && types[2] == DataType::S32) in.mode |= core::kVideoBSigned;
    }
    const bool flt = is_float(in.type);

    // Modifier/type combinations.
    if (info.form == OpForm::Cvt) {
        const bool sf = is_float(in.src_type);
        const auto r = static_cast<core::RoundMode>(in.rounding);
        if (!flt && !sf && r != core::RoundMode::None) error(op, "rounding modifier on an integer conversion in");
        if (flt && !sf && r >= core::RoundMode::Rni) error(op, "integer rounding modifier on an int-to-float conversion in");
    } else if (in.rounding && !flt) {
        error(op, "float rounding modifier on an integer type in");
    }
    if (in.sat && !flt && info.form != OpForm::Cvt && info.form != OpForm::Video &&
        !((m & core::kModSatInt) && in.type == DataType::S32))
        error(op, ".sat is not supported with this type in");
    if (m & (core::kModMul | core::kModLoHi)) {
        if (flt && have_mode) error(op, ".lo/.hi/.wide on a float type in");
        if (in.mode == uint8_t(core::MulMode::Wide) && core::type_bytes(in.type) == 8) error(op, ".wide needs a 16- or 32-bit type in");
    }
    if (info.form == OpForm::Setp || info.form == OpForm::Set) {
        if (!have_cmp) error(op, "missing comparison operator in");
        const auto c = static_cast<core::CmpOp>(in.cmp);
        if (!flt && c >= core::CmpOp::Equ) error(op, "unordered comparison on an integer type in");
        if (flt && c >= core::CmpOp::Lo && c <= core::CmpOp::Hs) error(op, "unsigned comparison on a float type in");
    }
    if (info.form == OpForm::Atomic || info.form == OpForm::Reduce) {
        if (!have_mode) error(op, "missing atomic operation in");
        const auto a = static_cast<core::AtomOp>(in.mode);
        if (flt && (a == core::AtomOp::Inc || a == core::AtomOp::Dec || a >= core::AtomOp::And))
            error(op, "atomic operation not supported on a float type in");
        if ((a == core::AtomOp::Inc || a == core::AtomOp::Dec) && in.type != DataType::U32)
            error(op, "atomic inc/dec need .u32 in");
        if (a == core::AtomOp::Cas && info.form == OpForm::Reduce) error(op, "red has no cas in");
    }
    if (in.cc && in.type != DataType::U32 && in.type != DataType::S32 && in.type != DataType::U64 && in.type != DataType::S64)
        error(op, ".cc needs a 32- or 64-bit integer type in");
    if (info.name == "madc" && in.mode == uint8_t(core::MulMode::Wide)) error(op, "madc needs .lo or .hi in");
    if (info.form == OpForm::Video && (in.mode & core::kVideoAdd) && in.sat) error(op, ".sat cannot be used with .add in");
    if (info.form == OpForm::BarRed) {
        if (!have_mode) error(op, "missing reduction (.popc, .and, .or) in");
        if ((in.mode == uint8_t(core::BarRedOp::Popc)) != (in.type == DataType::U32))
            error(op, "bar.red.popc needs .u32 and bar.red.and/.or need .pred in");
    }
    if (in.type == DataType::B16 && (info.form == OpForm::Atomic || info.form == OpForm::Reduce) &&
        (info.form == OpForm::Reduce || in.mode != uint8_t(core::AtomOp::Cas)))
        error(op, "16-bit atomics support only .cas in");
    if ((info.form == OpForm::Shfl || info.form == OpForm::Vote || info.form == OpForm::Match) && !have_mode)
        error(op, "missing mode in");
    if (info.form == OpForm::Tex) {
        if (!have_mode) error(op, "missing texture geometry (.1d, .2d, ...) in");
        if (in.mode > 2) error(op, "unsupported texture geometry (only .1d and .2d) in");
        if (in.vec != 4) error(op, "tex needs .v4 in");
        if (in.type != DataType::F32 && in.type != DataType::S32 && in.type != DataType::U32)
            error(op, "unsupported tex result type in");
        if (in.src_type != DataType::S32 && in.src_type != DataType::F32) error(op, "tex coordinates must be .s32 or .f32 in");
    }
    if (info.form == OpForm::Match && in.mode != uint8_t(core::VoteMode::All) && in.mode != uint8_t(core::VoteMode::Any))
        error(op, "match needs .any or .all in");
    if (info.form == OpForm::Redux) {
        const auto a = static_cast<core::AtomOp>(in.mode);
        const bool arith = a == core::AtomOp::Add || a == core::AtomOp::Min || a == core::AtomOp::Max;
        const bool logic = a == core::AtomOp::And || a == core::AtomOp::Or || a == core::AtomOp::Xor;
        if (!have_mode || !(arith || logic)) error(op, "redux needs .add .min .max .and .or or .xor in");
        if (arith == (in.type == DataType::B32)) error(op, "redux .add/.min/.max need .u32/.s32, .and/.or/.xor need .b32 in");
    }
    if (info.form == OpForm::Vote && ((in.mode == uint8_t(core::VoteMode::Ballot)) != (in.type == DataType::B32)))
        error(op, "vote.ballot needs .b32 and vote.all/any/uni need .pred in");
    switch (info.form) {
    case OpForm::Load:
    case OpForm::Store:
    case OpForm::Atomic:
    case OpForm::Reduce:
        if (!have_space) in.space = StateSpace::Generic;
        if (in.space == StateSpace::Local && info.form != OpForm::Load && info.form != OpForm::Store)
            error(op, "unsupported state space .local (atomics on local memory) in");
        if (in.space == StateSpace::Const && info.form != OpForm::Load) error(op, "unsupported state space .const in");
        if (in.space == StateSpace::Param && info.form != OpForm::Load && info.form != OpForm::Store)
            error(op, "unsupported state space .param in");
        if (in.vec > 1 && info.form != OpForm::Load && info.form != OpForm::Store) error(op, "vector modifier not allowed in");
        break;
    case OpForm::Cvta:
        if (in.space != StateSpace::Global && in.space != StateSpace::Shared && in.space != StateSpace::Local)
            error(op, "cvta supports .global, .shared and .local only in");
        break;
    default:
        break;
    }
}

}  // namespace stacksim::workloads::detail
