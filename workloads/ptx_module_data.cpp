// SPDX-License-Identifier: Apache-2.0
// PTX parser: module-scope `.global` and `.const` variables (__device__ and __constant__ data,
// the math library's tables, printf format strings) with their initializers.
#include "workloads/ptx_parser_impl.h"

namespace stacksim::workloads::detail {

using core::DataType;

void PtxParser::parse_variable_decl(core::Module& mod, bool is_extern) {
    const Token& kw = next();  // .global / .const
    core::ModuleVariable v;
    v.space = kw.text == ".const" ? core::StateSpace::Const : core::StateSpace::Global;
    v.is_extern = is_extern;
    DataType type = DataType::None;
    uint32_t vec = 1, align = 0;
    while (peek().kind == TokKind::Word && peek().text[0] == '.') {
        const Token& t = next();
        if (t.text == ".align") {
            align = static_cast<uint32_t>(expect_uint());
            if (align == 0 || (align & (align - 1)) != 0) error(t, "alignment must be a power of two");
        } else if (t.text == ".v2" || t.text == ".v4") {
            vec = t.text == ".v2" ? 2 : 4;
        } else if (DataType d = parse_type_name(t.text.substr(1)); d != DataType::None && d != DataType::Pred) {
            type = d;
        } else if (t.text == ".attribute") {  // (.managed): a __managed__ variable, which cudart mirrors
            if (!accept('(')) error(t, "expected '(' after");
            const Token& a = next();
            if (a.text != ".managed" || !accept(')')) error(a, "unsupported variable attribute");
        } else if (t.text == ".texref" || t.text == ".surfref" || t.text == ".samplerref") {
            error(t, "unsupported texture/surface reference");
        } else {
            error(t, "unsupported attribute of a module variable");
        }
    }
    if (type == DataType::None) error(peek(), "missing type in a module variable declaration at");
    const Token& name = expect_word();
    v.name = std::string(name.text);
    m_unsupported_symbols[v.name] = std::string(kw.text);  // its uses, should the rest fail
    const uint64_t elem = uint64_t{core::type_bytes(type)} * vec;
    uint64_t count = 1;
    bool unsized = false;
    while (accept('[')) {
        if (accept(']')) {
            unsized = true;
            continue;
        }
        count *= expect_uint();
        if (count * elem > (uint64_t{1} << 32)) error(name, "module variable too large");
        expect(']');
    }
    if (accept('=')) {
        // Scalars, or a { } list (nested lists of multi-dimensional arrays are flattened).
        std::vector<uint64_t> values;
        int depth = 0;
        do {
            while (accept('{')) ++depth;
            RawOperand r = parse_operand();
            auto fn = r.literal ? m_function_index.end() : m_function_index.find(std::string(r.symbol));
            if (fn != m_function_index.end() && core::type_bytes(type) == 8) {  // a function pointer
                values.push_back(core::function_address(fn->second));
                m_functions[fn->second].address_taken = true;
            } else {
                if (!r.literal) error(*r.tok, "unsupported initializer (an address in a variable's initializer)");
                values.push_back(literal_bits(r, type));
            }
            while (depth > 0 && accept('}')) --depth;
        } while (accept(','));
        if (depth != 0) error(peek(), "unbalanced braces in an initializer at");
        if (unsized) count = (values.size() + vec - 1) / vec, unsized = false;
        if (values.size() > count * vec) error(name, "more initializers than elements in");
        const unsigned tb = core::type_bytes(type);
        v.init.resize(values.size() * tb);
        for (size_t i = 0; i < values.size(); ++i)
            for (unsigned b = 0; b < tb; ++b) v.init[i * tb + b] = static_cast<uint8_t>(values[i] >> (8 * b));
    }
    expect(';');
    if (unsized && !is_extern) error(name, "unsized module variable needs .extern or an initializer:");
    v.bytes = unsized ? 0 : count * elem;
    v.align = align ? align : core::type_bytes(type);
    auto it = m_variable_index.find(v.name);
    if (it != m_variable_index.end()) {
        core::ModuleVariable& old = mod.variables[it->second];
        if (!old.is_extern && !v.is_extern) error(name, "module variable defined twice:");
        if (old.is_extern && !v.is_extern) old = v;  // the definition completes the declaration
        return;
    }
    m_variable_index[v.name] = static_cast<uint32_t>(mod.variables.size());
    mod.variables.push_back(std::move(v));
}

}  // namespace stacksim::workloads::detail
