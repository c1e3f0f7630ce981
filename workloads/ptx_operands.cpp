// SPDX-License-Identifier: Apache-2.0
// PTX parser: operands -- registers, special registers, literals, addresses, vectors, symbols.
#include <cmath>
#include <cstring>
#include <string>

#include "core/exec_context.h"
#include "workloads/ptx_parser_impl.h"

namespace stacksim::workloads::detail {

using core::DataType;
using core::Instruction;
using core::OpForm;
using core::Operand;
using core::SpecialReg;
using core::StateSpace;

namespace {

constexpr std::pair<std::string_view, SpecialReg> kSpecials[] = {
    {"%tid.x", SpecialReg::TidX},       {"%tid.y", SpecialReg::TidY},       {"%tid.z", SpecialReg::TidZ},
    {"%ntid.x", SpecialReg::NtidX},     {"%ntid.y", SpecialReg::NtidY},     {"%ntid.z", SpecialReg::NtidZ},
    {"%ctaid.x", SpecialReg::CtaidX},   {"%ctaid.y", SpecialReg::CtaidY},   {"%ctaid.z", SpecialReg::CtaidZ},
    {"%nctaid.x", SpecialReg::NctaidX}, {"%nctaid.y", SpecialReg::NctaidY}, {"%nctaid.z", SpecialReg::NctaidZ},
    {"%laneid", SpecialReg::LaneId},    {"%warpid", SpecialReg::WarpId},    {"%nwarpid", SpecialReg::NWarpId},
    {"%smid", SpecialReg::SmId},        {"%clock", SpecialReg::Clock},      {"%clock64", SpecialReg::Clock64},
    {"%clock_hi", SpecialReg::ClockHi},
    {"%lanemask_eq", SpecialReg::LanemaskEq}, {"%lanemask_lt", SpecialReg::LanemaskLt},
    {"%lanemask_le", SpecialReg::LanemaskLe}, {"%lanemask_gt", SpecialReg::LanemaskGt},
    {"%lanemask_ge", SpecialReg::LanemaskGe}, {"%globaltimer", SpecialReg::GlobalTimer},
    {"%globaltimer_lo", SpecialReg::GlobalTimerLo}, {"%globaltimer_hi", SpecialReg::GlobalTimerHi},
    {"%nsmid", SpecialReg::NSmId},      {"%gridid", SpecialReg::GridId},
    {"%dynamic_smem_size", SpecialReg::DynamicSmemSize}, {"%total_smem_size", SpecialReg::TotalSmemSize},
};
/// Special registers that exist in PTX but are not modelled.
constexpr std::string_view kUnsupportedSpecials[] = {"%lanemask", "%envreg", "%pm", "%globaltimer", "%cluster", "%nclusterid", "%is_explicit_cluster",
                                                     "%reserved_smem", "%tid", "%ntid", "%ctaid", "%nctaid"};

/// A numeric literal: integer (two's complement bits), exact f32/f64 bits, or a decimal float.
struct Literal {
    enum Kind { Int, F32Bits, F64Bits, Float } kind = Int;
    uint64_t bits = 0;
    double value = 0;
};

bool parse_digits(std::string_view s, unsigned base, uint64_t& out) {
    if (s.empty()) return false;
    uint64_t v = 0;
    for (char c : s) {
        unsigned d = c >= '0' && c <= '9' ? unsigned(c - '0')
                     : c >= 'a' && c <= 'f' ? unsigned(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? unsigned(c - 'A' + 10) : 99;
        if (d >= base || v > (~uint64_t(0) - d) / base) return false;
        v = v * base + d;
    }
    out = v;
    return true;
}

/// Parses a number token; returns false when malformed.
bool parse_literal(std::string_view s, bool negative, Literal& lit) {
    if (s.size() > 1 && s.back() == 'U') s.remove_suffix(1);
    if (s.size() == 10 && (s.substr(0, 2) == "0f" || s.substr(0, 2) == "0F")) {
        lit.kind = Literal::F32Bits;
        if (!parse_digits(s.substr(2), 16, lit.bits)) return false;
        if (negative) lit.bits ^= 0x80000000u;
        return true;
    }
    if (s.size() == 18 && (s.substr(0, 2) == "0d" || s.substr(0, 2) == "0D")) {
        lit.kind = Literal::F64Bits;
        if (!parse_digits(s.substr(2), 16, lit.bits)) return false;
        if (negative) lit.bits ^= 0x8000000000000000ull;
        return true;
    }
    bool ok;
    if (s.size() > 2 && (s.substr(0, 2) == "0x" || s.substr(0, 2) == "0X")) {
        ok = parse_digits(s.substr(2), 16, lit.bits);
    } else if (s.size() > 2 && (s.substr(0, 2) == "0b" || s.substr(0, 2) == "0B")) {
        ok = parse_digits(s.substr(2), 2, lit.bits);
    } else if (s.find_first_of(".eE") != std::string_view::npos) {
        std::string str(s);
        char* end = nullptr;
        lit.kind = Literal::Float;
        lit.value = std::strtod(str.c_str(), &end);
        if (end != str.c_str() + str.size()) return false;
        if (negative) lit.value = -lit.value;
        return true;
    } else if (s.size() > 1 && s[0] == '0') {
        ok = parse_digits(s.substr(1), 8, lit.bits);
    } else {
        ok = parse_digits(s, 10, lit.bits);
    }
    if (negative) lit.bits = uint64_t(0) - lit.bits;
    return ok;
}

uint64_t f32_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
uint64_t f64_bits(double d) {
    uint64_t u;
    std::memcpy(&u, &d, 8);
    return u;
}
float bits_f32(uint64_t b) {
    uint32_t u = uint32_t(b);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
double bits_f64(uint64_t b) {
    double d;
    std::memcpy(&d, &b, 8);
    return d;
}

}  // namespace

RawOperand PtxParser::parse_operand() {
    RawOperand r;
    const Token& t = peek();
    r.tok = &t;
    if (accept('{')) {
        r.op.kind = Operand::Kind::Vector;
        do {
            if (peek().kind == TokKind::Number) {  // a literal 0 (nvcc's bf16 -> f32: {0, %rs})
                const Token& n = next();
                Literal lit;
                if (!parse_literal(n.text, false, lit) || lit.kind != Literal::Int || lit.bits != 0)
                    error(n, "only the literal 0 is supported in a vector, found");
                if (r.op.vec_len == 4) error(n, "too many vector elements at");
                r.op.vec[r.op.vec_len++] = zero_reg(n);
                continue;
            }
            const Token& e = expect_word();
            if (r.op.vec_len == 4) error(e, "too many vector elements at");
            r.op.vec[r.op.vec_len++] = e.text == "_" ? core::kNoReg : lookup_reg(e);
        } while (accept(','));
        expect('}');
        return r;
    }
    if (accept('[')) {
        parse_address(r);
        return r;
    }
    if (accept('!')) {
        const Token& p = expect_word();
        r.tok = &p;
        r.op.kind = Operand::Kind::Reg;
        r.op.reg = lookup_reg(p);
        r.op.negate = true;
        return r;
    }
    if (t.is('-') || t.kind == TokKind::Number) {
        r.negative = t.is('-');
        if (r.negative) next();
        const Token& n = peek();
        if (n.kind != TokKind::Number) error(n, "expected a number after '-' but found");
        next();
        r.tok = &n;
        r.literal = true;
        r.op.kind = Operand::Kind::Imm;
        return r;
    }
    if (t.kind == TokKind::Word) {
        next();
        if (t.text[0] == '%') {
            for (const auto& [name, s] : kSpecials) {
                if (name == t.text) {
                    r.op.kind = Operand::Kind::Special;
                    r.op.special = s;
                    return r;
                }
            }
            if (t.text.substr(0, 7) == "%envreg") {
                uint64_t n = 0;
                if (parse_digits(t.text.substr(7), 10, n) && n < 32 && t.text.size() <= 9) {
                    r.op.kind = Operand::Kind::Special;
                    r.op.special = SpecialReg(unsigned(SpecialReg::EnvReg0) + n);
                    return r;
                }
            }
            bool declared = false;
            for (const auto& scope : m_scopes) declared |= scope.count(std::string(t.text)) > 0;
            if (!declared)
                for (std::string_view u : kUnsupportedSpecials)
                    if (t.text.substr(0, u.size()) == u) error(t, "unsupported special register");
            r.op.kind = Operand::Kind::Reg;
            r.op.reg = lookup_reg(t);
            return r;
        }
        if (is_declared_reg(t.text)) {  // an inline-asm register declared without '%'
            r.op.kind = Operand::Kind::Reg;
            r.op.reg = lookup_reg(t);
            return r;
        }
        r.op.kind = Operand::Kind::Imm;
        r.symbol = t.text;
        return r;
    }
    error(t, "expected an operand but found");
}

void PtxParser::parse_address(RawOperand& r) {
    r.op.kind = Operand::Kind::Addr;
    auto offset = [&](bool negative) {
        const Token& n = peek();
        Literal lit;
        if (n.kind != TokKind::Number || !parse_literal(n.text, negative, lit) || lit.kind != Literal::Int)
            error(n, "expected an integer address offset but found");
        next();
        return lit.bits;
    };
    const Token& t = peek();
    if (t.kind == TokKind::Word) {
        next();
        r.tok = &t;
        if (t.text[0] == '%' || is_declared_reg(t.text)) r.op.reg = lookup_reg(t);
        else r.symbol = t.text;
        if (r.op.reg != core::kNoReg && accept(',')) {  // texture operand [handle, {coords}]
            expect('{');
            do {
                const Token& e = expect_word();
                if (r.op.vec_len == 4) error(e, "too many coordinates at");
                r.op.vec[r.op.vec_len++] = lookup_reg(e);
            } while (accept(','));
            expect('}');
        } else if (accept('+')) r.op.imm = offset(accept('-'));
        else if (accept('-')) r.op.imm = offset(true);
    } else if (t.kind == TokKind::Number) {
        r.op.imm = offset(false);
    } else {
        error(t, "malformed address operand at");
    }
    expect(']');
}

uint64_t PtxParser::literal_bits(const RawOperand& r, DataType t) const {
    Literal lit;
    if (!parse_literal(r.tok->text, r.negative, lit)) error(*r.tok, "malformed number");
    if (t == DataType::F32 || t == DataType::F64) {
        double v = lit.kind == Literal::F32Bits ? double(bits_f32(lit.bits))
                   : lit.kind == Literal::F64Bits ? bits_f64(lit.bits)
                   : lit.kind == Literal::Float ? lit.value : double(int64_t(lit.bits));
        if (t == DataType::F32) return lit.kind == Literal::F32Bits ? lit.bits : f32_bits(float(v));
        return lit.kind == Literal::F64Bits ? lit.bits : f64_bits(v);
    }
    if (lit.kind == Literal::Float) error(*r.tok, "float literal for an integer operand");
    if (t == DataType::Pred) return lit.bits != 0 ? 1 : 0;
    return lit.bits;
}

Operand PtxParser::source(RawOperand& r, DataType t, Instruction& in, uint8_t slot, bool allow_vector) {
    (void)in;
    switch (r.op.kind) {
    case Operand::Kind::Imm:
        if (r.literal) {
            r.op.imm = literal_bits(r, t);
            return r.op;
        }
        if (r.symbol == "WARP_SZ") {  // the warp size constant (CUDA's warpSize)
            r.op.imm = core::kWarpSize;
            return r.op;
        }
        for (const core::KernelParam& p : m_kernel->params)
            if (p.name == r.symbol) error(*r.tok, "taking the address of a .param is not supported");
        m_fixups.push_back({uint32_t(m_kernel->code.size()), true, slot, false, std::string(r.symbol), 0, r.tok->line});
        return r.op;
    case Operand::Kind::Reg:
        if (r.op.negate && t != DataType::Pred) error(*r.tok, "'!' is only allowed on predicate operands");
        if ((t == DataType::Pred) != (m_reg_type[r.op.reg] == DataType::Pred))
            error(*r.tok, t == DataType::Pred ? "expected a predicate register" : "unexpected predicate register");
        return r.op;
    case Operand::Kind::Special:
        if (t == DataType::Pred) error(*r.tok, "expected a predicate register");
        return r.op;
    case Operand::Kind::Vector:
        if (!allow_vector) error(*r.tok, "unexpected vector operand");
        for (unsigned k = 0; k < r.op.vec_len; ++k)
            if (r.op.vec[k] == core::kNoReg) error(*r.tok, "'_' is not allowed in a source vector");
        return r.op;
    default:
        break;
    }
    error(*r.tok, "unexpected address operand");
}

Operand PtxParser::dest(RawOperand& r, bool want_pred, bool allow_vector) {
    if (r.op.kind == Operand::Kind::Reg && !r.op.negate) {
        if (want_pred != (m_reg_type[r.op.reg] == DataType::Pred))
            error(*r.tok, want_pred ? "expected a predicate register" : "unexpected predicate register");
        return r.op;
    }
    if (r.op.kind == Operand::Kind::Vector && allow_vector) return r.op;
    error(*r.tok, "destination must be a register");
}

Operand PtxParser::address(RawOperand& r, Instruction& in, uint8_t slot) {
    if (r.op.kind != Operand::Kind::Addr) error(*r.tok, "expected an address operand [..] but found");
    if (r.symbol.empty()) return r.op;
    if (in.space == StateSpace::Param) {
        if (resolve_frame_param(r.symbol, in, r.op)) return r.op;
        if (in.info->form == OpForm::Store) error(*r.tok, "st.param to a kernel parameter");
        for (const core::KernelParam& p : m_kernel->params) {
            if (p.name == r.symbol) {
                r.op.imm += p.offset;
                return r.op;
            }
        }
        error(*r.tok, "unknown parameter");
    }
    for (const core::KernelParam& p : m_kernel->params)
        if (p.name == r.symbol) error(*r.tok, "a .param may only be read with ld.param");
    // Shared symbols: offsets in the shared window; generic accesses see the window address.
    uint64_t addend = r.op.imm + (in.space == StateSpace::Generic ? core::kSharedWindowBase : 0);
    m_fixups.push_back({uint32_t(m_kernel->code.size()), true, slot, false, std::string(r.symbol), addend, r.tok->line});
    return r.op;
}

void PtxParser::assign_operands(const Token& op, std::vector<RawOperand>& ops, Instruction& in) {
    const core::OpInfo& info = *in.info;
    const DataType t = in.type;
    const bool pipe = !ops.empty() && ops[0].pipe;
    for (size_t i = 0; i < ops.size(); ++i)
        if (ops[i].pipe && (i != 0 || (info.form != OpForm::Setp && info.form != OpForm::Shfl && info.form != OpForm::Match)))
            error(*ops[i].tok, "unexpected '|' after");
    auto count = [&](size_t lo, size_t hi) {
        if (ops.size() < lo || ops.size() > hi)
            error(op, "wrong number of operands (expected " + std::to_string(lo) +
                          (hi != lo ? "-" + std::to_string(hi) : "") + ", found " + std::to_string(ops.size()) + ") for");
    };
    auto dst = [&](size_t i, bool want_pred, bool vec = false) { in.dst[in.num_dst++] = dest(ops[i], want_pred, vec); };
    auto src = [&](size_t i, DataType st, bool vec = false) {
        uint8_t slot = in.num_src++;
        in.src[slot] = source(ops[i], st, in, slot, vec);
    };
    auto addr = [&](size_t i) {
        uint8_t slot = in.num_src++;
        in.src[slot] = address(ops[i], in, slot);
    };
    const DataType u32 = DataType::U32, pred = DataType::Pred;
    switch (info.form) {
    case OpForm::Alu: {
        const bool is_mov = info.name == "mov";
        count(info.num_src + 1u, info.num_src + 1u);
        dst(0, t == pred, is_mov);
        for (size_t i = 1; i <= info.num_src; ++i) src(i, t, is_mov && in.dst[0].kind != Operand::Kind::Vector);
        if (is_mov && (in.dst[0].kind == Operand::Kind::Vector || in.src[0].kind == Operand::Kind::Vector)) {
            const Operand& v = in.dst[0].kind == Operand::Kind::Vector ? in.dst[0] : in.src[0];
            if ((v.vec_len != 2 && v.vec_len != 4) || core::type_bytes(t) % v.vec_len != 0 || core::type_bytes(t) < 4)
                error(op, "mov pack/unpack needs .b32 or .b64 and 2 or 4 elements in");
        }
        break;
    }
    case OpForm::Setp: {
        const size_t nd = pipe ? 2 : 1;
        const bool has_c = in.bool_op != 0;
        count(nd + 2 + has_c, nd + 2 + has_c);
        for (size_t i = 0; i < nd; ++i) dst(i, true);
        src(nd, t);
        src(nd + 1, t);
        if (has_c) src(nd + 2, pred);
        break;
    }
    case OpForm::Set: {
        const bool has_c = in.bool_op != 0;
        count(3 + has_c, 3 + has_c);
        dst(0, false);
        src(1, t);
        src(2, t);
        if (has_c) src(3, pred);
        break;
    }
    case OpForm::Selp:
        count(4, 4);
        dst(0, false);
        src(1, t);
        src(2, t);
        src(3, pred);
        break;
    case OpForm::Cvt:
        if (t == DataType::F16x2 || t == DataType::BF16x2) {  // cvt.rn.f16x2.f32 d, a, b
            count(3, 3);
            dst(0, false);
            src(1, in.src_type);
            src(2, in.src_type);
            break;
        }
        count(2, 2);
        dst(0, false);
        src(1, in.src_type);
        break;
    case OpForm::Cvta:
        count(2, 2);
        dst(0, false);
        src(1, DataType::U64);
        break;
    case OpForm::Load:
        count(2, 2);
        dst(0, false, in.vec > 1);
        if (in.vec > 1 && in.dst[0].vec_len != in.vec) error(*ops[0].tok, "vector size does not match the instruction at");
        addr(1);
        break;
    case OpForm::Store:
        count(2, 2);
        addr(0);
        src(1, t, in.vec > 1);
        if (in.vec > 1 && in.src[1].vec_len != in.vec) error(*ops[1].tok, "vector size does not match the instruction at");
        break;
    case OpForm::Atomic: {
        const size_t n = in.mode == uint8_t(core::AtomOp::Cas) ? 4 : 3;
        count(n, n);
        dst(0, false);
        addr(1);
        for (size_t i = 2; i < n; ++i) src(i, t);
        break;
    }
    case OpForm::Reduce:
        count(2, 2);
        addr(0);
        src(1, t);
        break;
    case OpForm::Branch:
        count(1, 1);
        if (ops[0].op.kind != Operand::Kind::Imm || ops[0].symbol.empty()) error(*ops[0].tok, "expected a label but found");
        m_fixups.push_back({uint32_t(m_kernel->code.size()), true, 0, true, std::string(ops[0].symbol), 0, ops[0].tok->line});
        break;
    case OpForm::Plain:
        if (info.name == "prefetch") {  // prefetch{.space}.level [a]: a hint, its address unused
            count(1, 1);
            break;
        }
        count(0, 0);
        break;
    case OpForm::Barrier:
        count(1, 2);
        for (size_t i = 0; i < ops.size(); ++i) src(i, u32);
        break;
    case OpForm::Shfl: {
        const size_t nd = pipe ? 2 : 1;
        count(nd + 4, nd + 4);
        dst(0, false);
        if (pipe) dst(1, true);
        for (size_t i = nd; i < nd + 4; ++i) src(i, u32);
        break;
    }
    case OpForm::Vote:
        count(3, 3);
        dst(0, t == pred);
        src(1, pred);
        src(2, u32);
        break;
    case OpForm::Match: {
        const size_t nd = pipe ? 2 : 1;
        if (pipe && in.mode != uint8_t(core::VoteMode::All)) error(*ops[0].tok, "only match.all has a predicate result at");
        count(nd + 2, nd + 2);
        dst(0, false);
        if (pipe) dst(1, true);
        src(nd, t);
        src(nd + 1, u32);
        break;
    }
    case OpForm::Redux:
        count(3, 3);
        dst(0, false);
        src(1, t);
        src(2, u32);
        break;
    case OpForm::Source:
        count(1, 1);
        src(0, t);
        break;
    case OpForm::BarRed:  // bar.red.op.type d, a[, b], {!}c
        count(3, 4);
        dst(0, t == pred);
        for (size_t i = 1; i + 1 < ops.size(); ++i) src(i, u32);
        src(ops.size() - 1, pred);
        break;
    case OpForm::Call:  // parsed by parse_call
        break;
    case OpForm::Video:  // vop4.dtype.atype.btype d, a, b, c
        count(4, 4);
        dst(0, false);
        for (size_t i = 1; i < 4; ++i) src(i, u32);
        break;
    case OpForm::Tex: {
        count(2, 2);
        dst(0, false, true);
        if (in.dst[0].kind != Operand::Kind::Vector || in.dst[0].vec_len != 4)
            error(*ops[0].tok, "tex needs a 4-element destination vector at");
        const Operand& a = ops[1].op;
        if (a.kind != Operand::Kind::Addr || a.reg == core::kNoReg || a.vec_len == 0)
            error(*ops[1].tok, "expected a texture operand [handle, {coordinates}] at");
        if (a.vec_len != in.mode) error(*ops[1].tok, "wrong number of texture coordinates at");
        Operand h;
        h.kind = Operand::Kind::Reg;
        h.reg = a.reg;
        Operand c;
        c.kind = Operand::Kind::Vector;
        c.vec_len = a.vec_len;
        c.vec = a.vec;
        in.src[in.num_src++] = h;
        in.src[in.num_src++] = c;
        break;
    }
    }
    // Declared width of the destination register (ld sign-extension).
    if (in.num_dst > 0) {
        const Operand& d = in.dst[0];
        uint16_t r = d.kind == Operand::Kind::Vector ? core::kNoReg : d.reg;
        for (unsigned k = 0; d.kind == Operand::Kind::Vector && k < d.vec_len && r == core::kNoReg; ++k) r = d.vec[k];
        if (r != core::kNoReg) in.dst_bytes = static_cast<uint8_t>(core::type_bytes(m_reg_type[r]));
    }
}

}  // namespace stacksim::workloads::detail
