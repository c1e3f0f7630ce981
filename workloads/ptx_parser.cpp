// SPDX-License-Identifier: Apache-2.0
// PTX parser: module directives, .entry signatures, declarations and kernel bodies.
#include "workloads/ptx_parser.h"
#include "core/idempotence.h"

#include <algorithm>
#include <limits>

#include "workloads/ptx_parser_impl.h"

namespace stacksim::workloads {

core::Module parse_ptx(std::string_view text, const std::string& file_name) {
    detail::PtxParser p(text, file_name);
    return p.parse();
}

namespace detail {

using core::DataType;

DataType parse_type_name(std::string_view s) {
    static const std::pair<std::string_view, DataType> kTypes[] = {
        {"b8", DataType::B8},   {"b16", DataType::B16}, {"b32", DataType::B32}, {"b64", DataType::B64},
        {"u8", DataType::U8},   {"u16", DataType::U16}, {"u32", DataType::U32}, {"u64", DataType::U64},
        {"s8", DataType::S8},   {"s16", DataType::S16}, {"s32", DataType::S32}, {"s64", DataType::S64},
        {"f16", DataType::F16}, {"f32", DataType::F32}, {"f64", DataType::F64}, {"pred", DataType::Pred},
        {"f16x2", DataType::F16x2}, {"bf16", DataType::BF16}, {"bf16x2", DataType::BF16x2},
    };
    for (const auto& [name, t] : kTypes)
        if (name == s) return t;
    return DataType::None;
}

namespace {
uint32_t align_up(uint64_t v, uint64_t a) { return static_cast<uint32_t>(a ? (v + a - 1) / a * a : v); }
}  // namespace

PtxParser::PtxParser(std::string_view text, const std::string& file)
    : m_toks(tokenize_ptx(text, file)), m_file(file),
      m_file_ptr(std::make_shared<const std::string>(file)) {}

// ---- token cursor --------------------------------------------------------------------------

const Token& PtxParser::peek(size_t ahead) const {
    return m_toks[std::min(m_pos + ahead, m_toks.size() - 1)];
}

const Token& PtxParser::next() {
    const Token& t = m_toks[m_pos];
    if (t.kind != TokKind::End) ++m_pos;
    return t;
}

bool PtxParser::accept(char c) {
    if (!peek().is(c)) return false;
    ++m_pos;
    return true;
}

const Token& PtxParser::expect(char c) {
    const Token& t = peek();
    if (!t.is(c)) error(t, std::string("expected '") + c + "' but found");
    return next();
}

const Token& PtxParser::expect_word() {
    const Token& t = peek();
    if (t.kind != TokKind::Word) error(t, "expected an identifier but found");
    return next();
}

uint64_t PtxParser::expect_uint() {
    const Token& t = peek();
    if (t.kind != TokKind::Number) error(t, "expected a number but found");
    uint64_t v = 0;
    for (char c : t.text) {
        if (c < '0' || c > '9' || v > (std::numeric_limits<uint64_t>::max() - 9) / 10)
            error(t, "expected a decimal number but found");
        v = v * 10 + uint64_t(c - '0');
    }
    next();
    return v;
}

void PtxParser::error(const Token& t, const std::string& msg) const {
    throw PtxError(m_file, t.line, msg, t.kind == TokKind::End ? std::string_view("<end of file>") : t.text);
}

void PtxParser::error(uint32_t line, const std::string& msg, std::string_view tok) const {
    throw PtxError(m_file, line, msg, tok);
}

void PtxParser::skip_line(uint32_t line) {
    while (peek().kind != TokKind::End && peek().line == line) next();
}

// ---- module level --------------------------------------------------------------------------

core::Module PtxParser::parse() {
    core::Module mod;
    mod.file = m_file;
    while (peek().kind != TokKind::End) {
        if (!m_problems) {
            parse_module_item(mod);
            continue;
        }
        const size_t kernels = mod.kernels.size(), before = m_problems->size();
        try {
            parse_module_item(mod);
        } catch (const PtxError& e) {
            report(e);
            recover_module();
        }
        if (mod.kernels.size() > kernels) m_clean.push_back(m_problems->size() == before);
    }
    link_functions(mod);
    // .file directives follow the kernels in nvcc's output: attach the table at the end.
    for (core::Kernel& k : mod.kernels) k.source_files = m_source_files;
    return mod;
}

void PtxParser::parse_module_item(core::Module& mod) {
    const Token& t = peek();
    if (t.is_word(".version") || t.is_word(".target") || t.is_word(".address_size") || t.is_word(".loc")) {
        skip_line(t.line);
    } else if (t.is_word(".file")) {
        parse_file_directive();
    } else if (t.is_word(".section")) {  // debug sections: skip the header and its { } block
        skip_line(t.line);
        if (peek().is('{')) {
            int depth = 0;
            do {
                if (peek().kind == TokKind::End) error(peek(), "unterminated .section");
                if (peek().is('{')) ++depth;
                if (peek().is('}')) --depth;
                next();
            } while (depth > 0);
        }
    } else if (t.is_word(".visible") || t.is_word(".weak")) {
        next();
        if (peek().is_word(".func")) return parse_function();
        if (peek().is_word(".global") || peek().is_word(".const")) return parse_variable_decl(mod, false);
        if (!peek().is_word(".entry") && !peek().is_word(".func"))
            error(peek(), "expected .entry after " + std::string(t.text) + " but found");
    } else if (t.is_word(".entry")) {
        mod.kernels.push_back(parse_entry());
        mod.kernels.back().idempotent = core::is_idempotent(mod.kernels.back());
    } else if (t.is_word(".func")) {
        parse_function();
    } else if (t.is_word(".callprototype")) {
        error(t, "unsupported directive (a module-scope .callprototype)");
    } else if (t.is_word(".extern")) {
        next();
        if (peek().is_word(".func")) return parse_function();
        if (peek().is_word(".global") || peek().is_word(".const")) return parse_variable_decl(mod, true);
        if (!peek().is_word(".shared")) error(peek(), "unsupported .extern declaration");
        SharedVar v = parse_shared_decl();
        v.is_extern = true;
        m_module_shared.push_back(v);
    } else if (t.is_word(".shared")) {
        SharedVar v = parse_shared_decl();
        if (v.is_extern) error(t, "unsized .shared array needs .extern");
        m_module_shared.push_back(v);
    } else if (t.is_word(".global") || t.is_word(".const")) {
        parse_variable_decl(mod, false);
    } else if (t.is_word(".local")) {
        error(t, "unsupported state space (.local variables are not supported)");
    } else {
        error(t, "unexpected token at module scope");
    }
}

void PtxParser::parse_file_directive() {
    // .file ID "path" [, timestamp, size]
    const Token& kw = next();
    const uint64_t id = expect_uint();
    if (id > 0xFFFF) error(kw, "file id too large in");
    if (peek().kind != TokKind::String) error(peek(), "expected a file name but found");
    std::string_view name = next().text;
    if (name.size() >= 2) name = name.substr(1, name.size() - 2);
    if (m_source_files.size() <= id) m_source_files.resize(id + 1);
    m_source_files[id] = std::string(name);
    skip_line(kw.line);
}

void PtxParser::parse_loc_directive() {
    // .loc FILE LINE COLUMN [, function_name LABEL, inlined_at FILE LINE COLUMN]: the innermost
    // position (the instruction's own source line) is kept.
    const Token& kw = next();
    const uint64_t file = expect_uint(), line = expect_uint();
    if (file > 0xFFFF || line > 0xFFFFFFFFu) error(kw, "file id or line too large in");
    m_loc_file = static_cast<uint16_t>(file);
    m_loc_line = static_cast<uint32_t>(line);
    skip_line(kw.line);
}

SharedVar PtxParser::parse_shared_decl() {
    const Token& kw = next();  // .shared
    SharedVar v;
    DataType type = DataType::None;
    while (peek().kind == TokKind::Word && peek().text[0] == '.') {
        const Token& t = next();
        if (t.text == ".align") {
            v.align = static_cast<uint32_t>(expect_uint());
            if (v.align == 0 || (v.align & (v.align - 1)) != 0) error(t, "alignment must be a power of two");
        } else if (DataType d = parse_type_name(t.text.substr(1)); d != DataType::None && d != DataType::Pred) {
            type = d;
        } else {
            error(t, "unsupported " + std::string(kw.text) + " attribute");
        }
    }
    if (type == DataType::None) error(peek(), "missing type in " + std::string(kw.text) + " declaration at");
    v.name = std::string(expect_word().text);
    uint64_t count = 1;
    bool dims = false;
    while (accept('[')) {
        dims = true;
        if (accept(']')) {
            v.is_extern = true;
            continue;
        }
        count *= expect_uint();
        if (count > (uint64_t(1) << 31)) error(kw, "shared array too large");
        expect(']');
    }
    (void)dims;
    if (peek().is('=')) error(peek(), "unsupported initializer on .shared variable");
    expect(';');
    v.bytes = static_cast<uint32_t>(count * core::type_bytes(type));
    if (v.align == 1) v.align = core::type_bytes(type);
    return v;
}

core::Kernel PtxParser::parse_entry() {
    next();  // .entry
    core::Kernel kernel;
    core::Kernel* k = &kernel;
    m_kernel = k;
    m_body = k;
    m_zero_reg = core::kNoReg;
    k->name = std::string(expect_word().text);
    k->file = m_file;
    m_scopes.clear();
    m_param_scopes.clear();
    m_reg_type.clear();
    m_labels.clear();
    m_kernel_shared.clear();
    m_kernel_local.clear();
    m_fixups.clear();
    m_loc_file = 0;
    m_loc_line = 0;
    m_func = nullptr;
    m_body_calls = {};
    m_frame_bytes = 0;
    if (accept('(')) parse_params(*k);
    parse_perf_directives(*k);
    if (!peek().is('{')) error(peek(), "expected '{' to start the kernel body but found");
    parse_body(*k);
    finish_kernel(*k);
    m_body_calls.frame_bytes = m_frame_bytes;
    m_kernel_calls.push_back(m_body_calls);
    m_kernel = nullptr;
    m_body = nullptr;
    return kernel;
}

void PtxParser::parse_params(core::Kernel& k) {
    if (accept(')')) return;
    do {
        const Token& kw = peek();
        if (!kw.is_word(".param")) error(kw, "expected .param but found");
        next();
        core::KernelParam p;
        uint32_t align = 0;
        while (peek().kind == TokKind::Word && peek().text[0] == '.') {
            const Token& t = next();
            if (t.text == ".align") {
                align = static_cast<uint32_t>(expect_uint());
            } else if (DataType d = parse_type_name(t.text.substr(1)); d != DataType::None && d != DataType::Pred) {
                p.type = d;
            } else if (t.text == ".ptr" || t.text == ".global" || t.text == ".shared" ||
                       t.text == ".const" || t.text == ".local") {
                // pointer attributes: informational only
            } else {
                error(t, "unsupported .param attribute");
            }
        }
        if (p.type == DataType::None) error(peek(), "missing type in .param declaration at");
        p.name = std::string(expect_word().text);
        uint64_t count = 1;
        if (accept('[')) {
            count = expect_uint();
            expect(']');
        }
        p.bytes = static_cast<uint32_t>(count * core::type_bytes(p.type));
        if (count > 65536) error(kw, "parameter too large");
        if (align == 0) align = core::type_bytes(p.type);
        p.offset = align_up(k.param_bytes, align);
        k.param_bytes = p.offset + p.bytes;
        k.params.push_back(std::move(p));
    } while (accept(','));
    expect(')');
}

void PtxParser::parse_perf_directives(core::Kernel& k) {
    while (peek().kind == TokKind::Word && !peek().is('{')) {
        const Token& t = next();
        if (t.text == ".maxntid" || t.text == ".reqntid") {
            uint64_t prod = 1;
            do prod *= expect_uint();
            while (accept(','));
            if (t.text == ".maxntid" || k.max_threads_per_cta == 0)
                k.max_threads_per_cta = static_cast<uint32_t>(std::min<uint64_t>(prod, 0xFFFFFFFFu));
        } else if (t.text == ".minnctapersm" || t.text == ".maxnreg" || t.text == ".maxclusterrank") {
            do expect_uint();
            while (accept(','));
        } else if (t.text == ".noreturn") {
        } else if (t.text == ".pragma") {
            while (peek().kind == TokKind::String) next();
            expect(';');
        } else {
            error(t, "unsupported kernel directive");
        }
    }
}

void PtxParser::parse_body(core::Kernel& k) {
    expect('{');
    m_scopes.emplace_back();
    m_param_scopes.emplace_back();
    while (!m_scopes.empty()) {
        const Token& t = peek();
        if (t.kind == TokKind::End) error(t, "unexpected end of file in the body of kernel " + k.name + " at");
        if (!m_problems) {
            parse_statement(k);
            continue;
        }
        try {
            parse_statement(k);
        } catch (const PtxError& e) {
            report(e);
            recover_statement();
        }
    }
}

void PtxParser::parse_statement(core::Kernel& k) {
    {
        const Token& t = peek();
        if (t.is('}')) {
            next();
            m_scopes.pop_back();
            if (!m_param_scopes.empty()) m_param_scopes.pop_back();
        } else if (t.is('{')) {
            next();
            m_scopes.emplace_back();
            m_param_scopes.emplace_back();
        } else if (t.is_word(".reg")) {
            parse_reg_decl(k);
        } else if (t.is_word(".shared")) {
            SharedVar v = parse_shared_decl();
            if (v.is_extern) error(t, "unsized .shared array needs .extern at module scope");
            m_kernel_shared.push_back(v);
        } else if (t.is_word(".loc")) {
            parse_loc_directive();
        } else if (t.is_word(".file")) {
            skip_line(t.line);
        } else if (t.is_word(".pragma")) {
            next();
            while (peek().kind == TokKind::String) next();
            expect(';');
        } else if (t.is_word(".local")) {
            // Per-thread data (local arrays, the stack frame __local_depot): laid out like
            // .shared, in the thread's local window.
            SharedVar v = parse_shared_decl();
            if (v.is_extern) error(t, "unsized .local array");
            m_kernel_local.push_back(v);
        } else if (t.is_word(".param")) {
            parse_param_decl();
        } else if (t.kind == TokKind::Word && peek(1).is(':') &&
                   (peek(2).is_word(".callprototype") || peek(2).is_word(".calltargets"))) {
            skip_prototype();
        } else if (t.kind == TokKind::Word && t.text[0] == '.') {
            error(t, "unsupported directive");
        } else if (t.kind == TokKind::Word && peek(1).is(':')) {
            std::string name(t.text);
            if (m_labels.count(name)) error(t, "duplicate label");
            m_labels[name] = static_cast<uint32_t>(k.code.size());
            next();
            next();
        } else if (t.kind == TokKind::Word || t.is('@')) {
            parse_instruction(k);
        } else {
            error(t, "unexpected token");
        }
    }
}

void PtxParser::parse_reg_decl(core::Kernel& k) {
    next();  // .reg
    const Token& tt = expect_word();
    if (tt.text.size() < 2 || tt.text[0] != '.') error(tt, "expected a register type but found");
    DataType type = parse_type_name(tt.text.substr(1));
    if (type == DataType::None) error(tt, "unsupported register type");
    auto declare = [&](const std::string& name, const Token& at) {
        if (k.num_regs >= core::kNoReg) error(at, "too many registers");
        if (m_scopes.back().count(name)) error(at, "register declared twice");
        m_scopes.back()[name] = static_cast<uint16_t>(k.num_regs++);
        k.reg_names.push_back(name);
        m_reg_type.push_back(type);
    };
    do {
        const Token& nt = expect_word();
        // Inline assembly declares scoped registers without '%' (.reg .f16 low, high;).
        if (nt.text[0] == '.' || nt.text[0] == '$') error(nt, "malformed register name");
        if (accept('<')) {
            uint64_t count = expect_uint();
            expect('>');
            if (count > core::kNoReg) error(nt, "too many registers");
            for (uint64_t i = 0; i < count; ++i) declare(std::string(nt.text) + std::to_string(i), nt);
        } else {
            declare(std::string(nt.text), nt);
        }
    } while (accept(','));
    expect(';');
}

bool PtxParser::is_declared_reg(std::string_view name) const {
    const std::string n(name);
    for (const auto& scope : m_scopes)
        if (scope.count(n)) return true;
    return false;
}

uint16_t PtxParser::zero_reg(const Token& at) {
    if (m_zero_reg != core::kNoReg) return m_zero_reg;
    if (!m_body) error(at, "a literal in a vector is only supported in a kernel body at");
    if (m_body->num_regs >= core::kNoReg) error(at, "too many registers");
    m_zero_reg = static_cast<uint16_t>(m_body->num_regs++);
    m_body->reg_names.push_back("%<zero>");
    m_reg_type.push_back(DataType::B32);
    return m_zero_reg;
}

uint16_t PtxParser::lookup_reg(const Token& t) const {
    std::string name(t.text);
    for (auto it = m_scopes.rbegin(); it != m_scopes.rend(); ++it) {
        auto f = it->find(name);
        if (f != it->end()) return f->second;
    }
    error(t, "undeclared register");
}

void PtxParser::finish_kernel(core::Kernel& k) {
    k.reg_types = m_reg_type;
    // Shared layout: module-scope statics, then the kernel's statics, then the statics of the
    // functions it links (link_functions), then extern (dynamic). A function's own statics are
    // per CTA like a kernel's (`__shared__` in a __noinline__ function): here they get offsets in
    // the function's own region, which each kernel linking the function places after its own.
    std::unordered_map<std::string, uint32_t> addr, extern_align;
    std::unordered_set<std::string> own_names;
    uint32_t size = 0;
    auto place = [&](const std::vector<SharedVar>& vars) {
        for (const SharedVar& v : vars) {
            if (v.is_extern) continue;
            size = align_up(size, v.align);
            addr[v.name] = size;
            size += v.bytes;
        }
    };
    place(m_module_shared);
    if (m_func) {
        const uint32_t module_bytes = size;
        size = 0;
        place(m_kernel_shared);
        m_body_calls.own_bytes = size;
        size = module_bytes;
        for (const SharedVar& v : m_kernel_shared) {
            if (v.is_extern) continue;
            own_names.insert(v.name);
            m_body_calls.own_align = std::max(m_body_calls.own_align, v.align);
        }
    } else {
        place(m_kernel_shared);
    }
    k.static_shared_bytes = size;
    for (const SharedVar& v : m_module_shared)
        if (v.is_extern) {
            addr[v.name] = align_up(size, v.align);
            extern_align[v.name] = v.align;
        }
    size = 0;
    place(m_kernel_local);
    k.local_bytes = size;
    std::unordered_map<std::string, bool> local_names;
    for (const SharedVar& v : m_kernel_local) local_names[v.name] = true;

    for (const Fixup& f : m_fixups) {
        core::Instruction& in = k.code[f.inst];
        if (f.label) {
            auto it = m_labels.find(f.name);
            if (it == m_labels.end()) {
                if (!m_problems) error(f.line, "unknown label", f.name);
                report(PtxError(m_file, f.line, "unknown label", f.name));
                continue;
            }
            in.target = it->second;
            continue;
        }
        auto it = addr.find(f.name);
        if (auto var = m_variable_index.find(f.name); it == addr.end() && var != m_variable_index.end()) {
            core::Operand& o = f.in_src ? in.src[f.slot] : in.dst[f.slot];
            o.imm = f.addend;  // the loader adds the variable's device address
            k.relocations.push_back({f.inst, f.in_src, f.slot, var->second});
            continue;
        }
        if (auto fn = m_function_index.find(f.name); it == addr.end() && fn != m_function_index.end()) {
            core::Operand& o = f.in_src ? in.src[f.slot] : in.dst[f.slot];
            o.imm = core::function_address(fn->second) + f.addend;  // a function pointer
            m_functions[fn->second].address_taken = true;
            continue;
        }
        if (it == addr.end()) {
            if (!m_problems) error(f.line, "undeclared identifier", f.name);
            auto u = m_unsupported_symbols.find(f.name);
            report(PtxError(m_file, f.line,
                            u == m_unsupported_symbols.end() ? std::string("undeclared identifier")
                                                             : "address of an unsupported " + u->second + " variable",
                            f.name));
            continue;
        }
        core::Operand& o = f.in_src ? in.src[f.slot] : in.dst[f.slot];
        o.imm = it->second + f.addend;
        if (local_names.count(f.name)) {
            if (m_func) m_func->local_refs.emplace_back(f.inst, f.in_src, f.slot);
        } else if (own_names.count(f.name)) {
            m_body_calls.own_refs.push_back({f.inst, f.in_src, f.slot, 1, 0});
        } else if (auto e = extern_align.find(f.name); e != extern_align.end()) {
            m_body_calls.extern_refs.push_back({f.inst, f.in_src, f.slot, e->second, f.addend});
        }
    }
}

}  // namespace detail
}  // namespace stacksim::workloads
