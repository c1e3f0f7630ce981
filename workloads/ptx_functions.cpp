// SPDX-License-Identifier: Apache-2.0
// PTX parser: device functions (.func), call-site .param variables, call, and linking the
// functions a kernel can reach into its code (core/calls.h executes them).
#include <algorithm>

#include "core/idempotence.h"
#include "workloads/ptx_parser_impl.h"

namespace stacksim::workloads::detail {

using core::DataType;

namespace {
uint32_t align_to(uint64_t v, uint64_t a) { return static_cast<uint32_t>(a ? (v + a - 1) / a * a : v); }

void relocate(core::Instruction& in, uint16_t reg_off, uint32_t pc_off) {
    auto fix = [&](uint16_t& r) {
        if (r != core::kNoReg) r = static_cast<uint16_t>(r + reg_off);
    };
    auto fix_op = [&](core::Operand& o) {
        if (o.kind == core::Operand::Kind::Reg || o.kind == core::Operand::Kind::Addr) fix(o.reg);
        for (unsigned k = 0; k < o.vec_len; ++k) fix(o.vec[k]);
    };
    for (auto& o : in.src) fix_op(o);
    for (auto& o : in.dst) fix_op(o);
    fix(in.guard);
    if (in.target != core::kNoTarget) in.target += pc_off;
    in.finalize_registers();
}
}  // namespace

uint32_t PtxParser::declare_function(const std::string& name, uint32_t line) {
    auto it = m_function_index.find(name);
    if (it != m_function_index.end()) return it->second;
    ParsedFunction f;
    f.name = name;
    f.line = line;
    if (name == "vprintf") f.builtin = core::Builtin::Vprintf;
    if (name == "__assertfail") f.builtin = core::Builtin::AssertFail;
    m_function_index[name] = static_cast<uint32_t>(m_functions.size());
    m_functions.push_back(std::move(f));
    return m_function_index[name];
}

void PtxParser::parse_function() {
    // .func [(.param ret)] name [(.param a, ...)] [.noreturn] ( ; | { body } )
    const Token& kw = next();
    m_func = nullptr;
    core::Kernel ret_sig, sig;
    if (accept('(')) parse_params(ret_sig);
    const Token& nt = expect_word();
    if (accept('(')) parse_params(sig);
    parse_perf_directives(sig);
    if (ret_sig.params.size() > 1) error(nt, "more than one return value in");
    const uint32_t id = declare_function(std::string(nt.text), kw.line);
    {
        ParsedFunction& f = m_functions[id];
        f.param_offset.clear();
        f.param_bytes.clear();
        f.body.params = sig.params;
        for (const core::KernelParam& p : sig.params) {
            f.param_offset.push_back(p.offset);
            f.param_bytes.push_back(p.bytes);
        }
        f.ret_offset = align_to(sig.param_bytes, 16);
        f.ret_bytes = ret_sig.params.empty() ? 0 : ret_sig.params[0].bytes;
        f.ret_name = ret_sig.params.empty() ? std::string() : ret_sig.params[0].name;
        f.frame_bytes = f.ret_offset + f.ret_bytes;
    }
    if (accept(';')) return;  // a declaration (a prototype, or .extern)
    if (m_functions[id].defined) error(nt, "function defined twice:");
    ParsedFunction& f = m_functions[id];
    f.builtin = core::Builtin::None;  // a module's own definition wins over the builtin
    f.line = kw.line;
    const size_t problems_before = m_problems ? m_problems->size() : 0;
    m_kernel = &f.body;
    m_body = &f.body;
    m_zero_reg = core::kNoReg;
    f.body.name = f.name;
    f.body.file = m_file;
    m_scopes.clear();
    m_param_scopes.clear();
    m_reg_type.clear();
    m_labels.clear();
    m_kernel_shared.clear();
    m_kernel_local.clear();
    m_fixups.clear();
    m_body_calls = {};
    m_frame_bytes = f.frame_bytes;
    m_func = &f;
    if (!peek().is('{')) error(peek(), "expected '{' to start the function body but found");
    parse_body(f.body);
    finish_kernel(f.body);
    f.frame_bytes = m_frame_bytes;
    f.calls = m_body_calls;
    f.defined = true;
    if (m_problems && m_problems->size() != problems_before) f.address_taken = f.address_taken;  // kept for links
    m_func = nullptr;
    m_kernel = nullptr;
    m_body = nullptr;
}

void PtxParser::parse_param_decl() {
    // .param [.align N] .TYPE name[[K]];  a call's argument or return value in the body's frame
    const Token& kw = next();
    uint32_t align = 0;
    DataType type = DataType::None;
    while (peek().kind == TokKind::Word && peek().text[0] == '.') {
        const Token& t = next();
        if (t.text == ".align") {
            align = static_cast<uint32_t>(expect_uint());
            if (align == 0 || (align & (align - 1)) != 0) error(t, "alignment must be a power of two");
        } else if (DataType d = parse_type_name(t.text.substr(1)); d != DataType::None && d != DataType::Pred) {
            type = d;
        } else {
            error(t, "unsupported .param attribute");
        }
    }
    if (type == DataType::None) error(peek(), "missing type in .param declaration at");
    const Token& name = expect_word();
    uint64_t count = 1;
    if (accept('[')) {
        count = expect_uint();
        expect(']');
    }
    expect(';');
    if (count > 65536) error(kw, "parameter too large");
    const uint32_t bytes = static_cast<uint32_t>(count * core::type_bytes(type));
    m_frame_bytes = align_to(m_frame_bytes, align ? align : core::type_bytes(type));
    if (m_param_scopes.empty()) m_param_scopes.emplace_back();
    m_param_scopes.back()[std::string(name.text)] = ParamSym{m_frame_bytes, bytes};
    m_frame_bytes += bytes;
    if (m_frame_bytes > (1u << 20)) error(kw, "call parameters too large");
}

bool PtxParser::resolve_frame_param(std::string_view name, core::Instruction& in, core::Operand& o) {
    const std::string n(name);
    for (auto it = m_param_scopes.rbegin(); it != m_param_scopes.rend(); ++it) {
        auto f = it->find(n);
        if (f == it->end()) continue;
        o.imm += f->second.offset;
        in.mode = core::kParamFrame;
        return true;
    }
    if (!m_func) return false;
    for (size_t i = 0; i < m_func->body.params.size(); ++i) {
        if (m_func->body.params[i].name != n) continue;
        o.imm += m_func->param_offset[i];
        in.mode = core::kParamFrame;
        return true;
    }
    if (!m_func->ret_name.empty() && m_func->ret_name == n) {
        o.imm += m_func->ret_offset;
        in.mode = core::kParamFrame;
        return true;
    }
    return false;
}

void PtxParser::skip_prototype() {
    // NAME: .callprototype ... ;   /   NAME: .calltargets f, g;   (the call names NAME)
    int depth = 0;
    while (peek().kind != TokKind::End) {
        const Token& t = next();
        if (t.is('(') || t.is('{')) ++depth;
        if (t.is(')') || t.is('}')) --depth;
        if (t.is(';') && depth <= 0) return;
    }
}

void PtxParser::parse_call(const Token& op, core::Instruction& in) {
    // call[.uni] [(ret),] func|%reg [, (arg, ...)] [, prototype|targets];
    auto cs = std::make_shared<core::CallSite>();
    auto param = [&](const Token& t) -> ParamSym {
        const std::string n(t.text);
        for (auto it = m_param_scopes.rbegin(); it != m_param_scopes.rend(); ++it)
            if (auto f = it->find(n); f != it->end()) return f->second;
        error(t, "call arguments and return values must be .param variables declared in the body, not");
    };
    if (accept('(')) {
        const ParamSym r = param(expect_word());
        cs->ret_offset = r.offset;
        cs->ret_bytes = r.bytes;
        expect(')');
        expect(',');
    }
    const Token& t = expect_word();
    if (t.text[0] == '%' || is_declared_reg(t.text)) {
        core::Operand o;
        o.kind = core::Operand::Kind::Reg;
        o.reg = lookup_reg(t);
        in.src[0] = o;
        in.num_src = 1;
        cs->callee = -1;
        m_body_calls.indirect = true;
    } else {
        auto it = m_function_index.find(std::string(t.text));
        if (it == m_function_index.end()) error(t, "call to an undeclared function");
        cs->callee = static_cast<int32_t>(it->second);
        m_body_calls.callees.push_back(it->second);
    }
    if (accept(',')) {
        if (accept('(')) {
            if (!accept(')')) {
                do {
                    const ParamSym a = param(expect_word());
                    cs->args.emplace_back(a.offset, a.bytes);
                } while (accept(','));
                expect(')');
            }
            if (accept(',')) cs->prototype = std::string(expect_word().text);
        } else {
            cs->prototype = std::string(expect_word().text);
        }
    }
    if (cs->callee < 0 && cs->prototype.empty()) error(op, "an indirect call needs a prototype in");
    in.call = std::move(cs);
}

void PtxParser::link_functions(core::Module& mod) {
    const size_t n = m_functions.size();
    for (size_t ki = 0; ki < mod.kernels.size() && ki < m_kernel_calls.size(); ++ki) {
        core::Kernel& k = mod.kernels[ki];
        const KernelCalls& kc = m_kernel_calls[ki];
        if (kc.callees.empty() && !kc.indirect) continue;
        // The functions the kernel can reach: direct callees, transitively; with an indirect
        // call anywhere, every function whose address is taken.
        std::vector<bool> reached(n, false);
        std::vector<uint32_t> order, work(kc.callees.begin(), kc.callees.end());
        bool indirect = kc.indirect, added_taken = false;
        while (true) {
            while (!work.empty()) {
                const uint32_t id = work.back();
                work.pop_back();
                if (reached[id]) continue;
                reached[id] = true;
                order.push_back(id);
                work.insert(work.end(), m_functions[id].calls.callees.begin(), m_functions[id].calls.callees.end());
                indirect |= m_functions[id].calls.indirect;
            }
            if (!indirect || added_taken) break;
            added_taken = true;
            for (uint32_t id = 0; id < n; ++id)
                if (m_functions[id].address_taken) work.push_back(id);
        }
        std::sort(order.begin(), order.end());
        auto table = std::make_shared<core::CallTable>();
        table->kernel_frame_bytes = kc.frame_bytes;
        table->functions.resize(n);
        struct Range { uint32_t begin, end, frame; };
        std::vector<Range> ranges{{0, static_cast<uint32_t>(k.code.size()), kc.frame_bytes}};
        bool failed = false;
        std::vector<SharedRef> externs = kc.extern_refs;  // placed once every static is
        for (uint32_t id = 0; id < n; ++id) {
            const ParsedFunction& f = m_functions[id];
            core::FunctionInfo& fi = table->functions[id];
            fi.name = f.name;
            fi.builtin = f.builtin;
            fi.param_offset = f.param_offset;
            fi.param_bytes = f.param_bytes;
            fi.ret_offset = f.ret_offset;
            fi.ret_bytes = f.ret_bytes;
            fi.frame_bytes = f.frame_bytes;
            fi.line = f.line;
            if (!reached[id] || f.builtin != core::Builtin::None) continue;
            if (!f.defined) {
                const PtxError e(m_file, f.line, "call to a function that has no body in this module (modules are not linked)", f.name);
                if (!m_problems) throw e;
                report(e);
                failed = true;
                continue;
            }
            if (k.num_regs + f.body.num_regs >= core::kNoReg) error(f.line, "too many registers with the linked functions of kernel " + k.name, f.name);
            const uint32_t entry = static_cast<uint32_t>(k.code.size());
            const auto reg_off = static_cast<uint16_t>(k.num_regs);
            const uint32_t local_base = align_to(k.local_bytes, 16);
            const size_t first = k.code.size();
            for (const core::Instruction& src : f.body.code) {
                core::Instruction in = src;
                relocate(in, reg_off, entry);
                k.code.push_back(std::move(in));
            }
            for (const auto& [inst, in_src, slot] : f.local_refs) {
                core::Instruction& in = k.code[first + inst];
                (in_src ? in.src[slot] : in.dst[slot]).imm += local_base;
            }
            for (core::Relocation r : f.body.relocations) {
                r.inst += entry;
                k.relocations.push_back(r);
            }
            k.num_regs += f.body.num_regs;
            k.reg_names.insert(k.reg_names.end(), f.body.reg_names.begin(), f.body.reg_names.end());
            k.reg_types.insert(k.reg_types.end(), f.body.reg_types.begin(), f.body.reg_types.end());
            k.local_bytes = local_base + f.body.local_bytes;
            if (f.calls.own_bytes > 0) {  // the function's statics, after the kernel's
                const uint32_t base = align_to(k.static_shared_bytes, f.calls.own_align);
                for (const SharedRef& r : f.calls.own_refs) {
                    core::Instruction& in = k.code[first + r.inst];
                    (r.in_src ? in.src[r.slot] : in.dst[r.slot]).imm += base;
                }
                k.static_shared_bytes = base + f.calls.own_bytes;
            }
            for (SharedRef r : f.calls.extern_refs) {
                r.inst += static_cast<uint32_t>(first);
                externs.push_back(r);
            }
            fi.entry = entry;
            fi.reg_first = reg_off;
            fi.reg_count = static_cast<uint16_t>(f.body.num_regs);
            fi.local_offset = local_base;
            fi.local_bytes = f.body.local_bytes;
            ranges.push_back({entry, static_cast<uint32_t>(k.code.size()), f.frame_bytes});
        }
        for (const SharedRef& r : externs) {  // dynamic shared memory starts after all statics
            core::Instruction& in = k.code[r.inst];
            (r.in_src ? in.src[r.slot] : in.dst[r.slot]).imm = align_to(k.static_shared_bytes, r.align) + r.addend;
        }
        if (failed && ki < m_clean.size()) m_clean[ki] = false;
        for (const Range& r : ranges) {
            for (uint32_t i = r.begin; i < r.end; ++i) {
                core::Instruction& in = k.code[i];
                if (!in.call) continue;
                auto cs = std::make_shared<core::CallSite>(*in.call);
                cs->table = table;
                cs->caller_frame_bytes = r.frame;
                in.call = std::move(cs);
            }
        }
        k.idempotent = core::is_idempotent(k);
    }
}

}  // namespace stacksim::workloads::detail
