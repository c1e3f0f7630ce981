// SPDX-License-Identifier: Apache-2.0
// Internal: the PTX parser class shared by ptx_parser.cpp (module, kernels, declarations)
// and ptx_instruction.cpp (instruction decoding).
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/call_site.h"
#include "core/kernel.h"
#include "core/op_table.h"
#include "workloads/ptx_lexer.h"

namespace stacksim::workloads::detail {

/// A .shared variable: static (fixed size) or extern (dynamic, placed after the statics).
struct SharedVar {
    std::string name;
    uint32_t align = 1;
    uint32_t bytes = 0;
    bool is_extern = false;
    uint32_t offset = 0;
};

/// A .param variable a body declared for a call (argument or return value): its offset in the
/// frame of the function (or kernel) being parsed.
struct ParamSym {
    uint32_t offset = 0, bytes = 0;
};

/// An operand holding a .shared address that linking moves: a function's own static
/// (`align` unused) or an extern (dynamic) array, which starts after every static of the kernel.
struct SharedRef {
    uint32_t inst = 0;
    bool in_src = true;
    uint8_t slot = 0;
    uint32_t align = 1;   ///< extern: the array's alignment
    uint64_t addend = 0;  ///< extern: the offset into the array
};

/// Calls made by a body (for linking), and its .shared references that linking places.
struct KernelCalls {
    std::vector<uint32_t> callees;
    bool indirect = false;
    uint32_t frame_bytes = 0;
    std::vector<SharedRef> extern_refs;  ///< operands addressing an extern .shared array
    std::vector<SharedRef> own_refs;     ///< a function's operands addressing its own statics
    uint32_t own_bytes = 0;              ///< a function's own .shared statics, bytes
    uint32_t own_align = 1;
};

/// A `.func` of the module: its signature, and its body parsed like a kernel's (own registers,
/// labels, .local data), linked into each kernel that can reach it (ptx_functions.cpp).
struct ParsedFunction {
    std::string name;
    uint32_t line = 0;
    core::Builtin builtin = core::Builtin::None;
    bool defined = false;
    bool address_taken = false;
    core::Kernel body;  ///< code, registers, relocations, local_bytes; params = formals
    std::vector<uint32_t> param_offset, param_bytes;
    std::string ret_name;
    uint32_t ret_offset = 0, ret_bytes = 0;
    uint32_t frame_bytes = 0;
    std::vector<std::tuple<uint32_t, bool, uint8_t>> local_refs;  ///< operands holding a .local offset
    KernelCalls calls;  ///< its direct callees (module function ids), indirect calls, .shared statics and references
};

/// A reference resolved when the kernel body is complete (labels, shared symbols).
struct Fixup {
    uint32_t inst = 0;       ///< index in Kernel::code
    bool in_src = true;      ///< operand in src[] (else dst[])
    uint8_t slot = 0;
    bool label = false;      ///< branch target (else symbol address)
    std::string name;
    uint64_t addend = 0;
    uint32_t line = 0;
};

/// A parsed operand before it is placed into an instruction slot.
struct RawOperand {
    core::Operand op;
    const Token* tok = nullptr;  ///< first token, for errors
    bool literal = false;        ///< numeric literal still to be typed
    bool negative = false;       ///< literal preceded by '-'
    bool pipe = false;           ///< followed by '|' (setp/shfl second destination)
    std::string_view symbol;     ///< identifier (label, shared variable) for Imm / Addr
};

/// Recursive-descent parser over the token list.
class PtxParser {
public:
    PtxParser(std::string_view text, const std::string& file);
    core::Module parse();
    /// Recover from problems and collect them in `sink` instead of throwing (ptx check).
    void collect_problems(std::vector<PtxError>* sink) { m_problems = sink; }
    /// Per parsed .entry: no problem was found in it (collect mode).
    const std::vector<bool>& kernel_clean() const { return m_clean; }

private:
    // Token cursor.
    const Token& peek(size_t ahead = 0) const;
    const Token& next();
    bool accept(char c);
    const Token& expect(char c);
    const Token& expect_word();
    uint64_t expect_uint();
    [[noreturn]] void error(const Token& t, const std::string& msg) const;
    [[noreturn]] void error(uint32_t line, const std::string& msg, std::string_view tok) const;
    void skip_line(uint32_t line);

    // Problem recovery (ptx_recovery.cpp).
    void report(const PtxError& e);
    void recover_module();
    void recover_statement();
    void parse_function();
    // Device functions and calls (ptx_functions.cpp).
    void parse_param_decl();
    void parse_call(const Token& op, core::Instruction& in);
    bool resolve_frame_param(std::string_view name, core::Instruction& in, core::Operand& o);
    uint32_t declare_function(const std::string& name, uint32_t line);
    void link_functions(core::Module& mod);
    void skip_prototype();
    std::vector<ParsedFunction> m_functions;
    std::unordered_map<std::string, uint32_t> m_function_index;
    std::vector<KernelCalls> m_kernel_calls;  ///< per parsed kernel
    ParsedFunction* m_func = nullptr;         ///< the .func whose body is being parsed
    KernelCalls m_body_calls;                 ///< calls of the body being parsed
    std::vector<std::unordered_map<std::string, ParamSym>> m_param_scopes;
    uint32_t m_frame_bytes = 0;               ///< frame bytes of the body being parsed

    // Module level (ptx_parser.cpp).
    void parse_module_item(core::Module& mod);
    core::Kernel parse_entry();
    void parse_params(core::Kernel& k);
    void parse_perf_directives(core::Kernel& k);
    void parse_body(core::Kernel& k);
    void parse_statement(core::Kernel& k);
    void parse_reg_decl(core::Kernel& k);
    SharedVar parse_shared_decl();
    void finish_kernel(core::Kernel& k);
    uint16_t lookup_reg(const Token& t) const;
    /// Whether `name` is a register declared in an enclosing scope.
    bool is_declared_reg(std::string_view name) const;

    // Instructions (ptx_instruction.cpp).
    void parse_instruction(core::Kernel& k);
    void decode_modifiers(const Token& op, std::string_view mods, core::Instruction& in);
    RawOperand parse_operand();
    void parse_address(RawOperand& r);
    void assign_operands(const Token& op, std::vector<RawOperand>& ops, core::Instruction& in);
    core::Operand source(RawOperand& r, core::DataType t, core::Instruction& in, uint8_t slot,
                         bool allow_vector = false);
    core::Operand dest(RawOperand& r, bool want_pred, bool allow_vector = false);
    core::Operand address(RawOperand& r, core::Instruction& in, uint8_t slot);
    uint64_t literal_bits(const RawOperand& r, core::DataType t) const;

    std::vector<Token> m_toks;
    size_t m_pos = 0;
    std::string m_file;
    std::shared_ptr<const std::string> m_file_ptr;
    std::vector<SharedVar> m_module_shared;

    // Per-kernel state.
    std::vector<std::unordered_map<std::string, uint16_t>> m_scopes;
    std::vector<core::DataType> m_reg_type;
    std::unordered_map<std::string, uint32_t> m_labels;
    std::vector<SharedVar> m_kernel_shared;
    std::vector<SharedVar> m_kernel_local;  ///< .local declarations (per-thread offsets)
    std::vector<Fixup> m_fixups;
    const core::Kernel* m_kernel = nullptr;

    std::vector<PtxError>* m_problems = nullptr;  ///< collect mode when set
    std::vector<bool> m_clean;
    std::unordered_map<std::string, std::string> m_unsupported_symbols;
    std::vector<std::string> m_source_files;  ///< .file table (id -> path)
    uint16_t m_loc_file = 0;                  ///< the current .loc
    uint32_t m_loc_line = 0;
    void parse_file_directive();
    void parse_variable_decl(core::Module& mod, bool is_extern);
    std::unordered_map<std::string, uint32_t> m_variable_index;  ///< name -> Module::variables
    void parse_loc_directive();  ///< name -> state space
    core::Kernel* m_body = nullptr;      ///< the kernel whose body is being parsed
    uint16_t m_zero_reg = core::kNoReg;  ///< hidden register that is never written (reads 0)
    /// The hidden zero register standing for a literal 0 in a vector (mov.b32 %f, {0, %h}).
    uint16_t zero_reg(const Token& at);
};

/// DataType of a type modifier without the dot ("u32"), or None.
core::DataType parse_type_name(std::string_view s);

}  // namespace stacksim::workloads::detail
