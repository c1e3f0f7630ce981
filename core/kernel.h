// SPDX-License-Identifier: Apache-2.0
// Kernel and module IR produced by a front end (PTX today, synthetic generators later).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/instruction.h"

namespace stacksim::core {

/// One .param of an .entry.
struct KernelParam {
    std::string name;
    DataType type = DataType::None;
    uint32_t offset = 0;  ///< bytes from the start of the parameter buffer
    uint32_t bytes = 0;
};

/// A module-scope `.global` or `.const` variable, placed in device memory when the module is
/// loaded (only when a kernel or the host uses it).
struct ModuleVariable {
    std::string name;
    StateSpace space = StateSpace::Global;  ///< Global or Const
    uint32_t align = 1;
    uint64_t bytes = 0;
    std::vector<uint8_t> init;  ///< initial bytes; the rest of the variable is zero
    bool is_extern = false;     ///< `.extern`: declared, defined by another module
};

/// An operand that holds a module variable's device address: at load the loader adds the
/// variable's address to the operand's imm (which holds the offset written in the PTX).
struct Relocation {
    uint32_t inst = 0;      ///< index in Kernel::code
    bool in_src = true;     ///< operand in src[] (else dst[])
    uint8_t slot = 0;
    uint32_t variable = 0;  ///< index in Module::variables
};

/// A kernel entry point: straight-line code with branch targets resolved to indices.
struct Kernel {
    std::string name;
    std::string file;                   ///< source file name, for errors
    std::vector<Instruction> code;
    std::vector<KernelParam> params;
    uint32_t param_bytes = 0;           ///< size of the parameter buffer
    uint32_t static_shared_bytes = 0;   ///< .shared declarations (extern .shared starts here)
    uint32_t num_regs = 0;              ///< dense virtual registers (all classes, predicates too)
    std::vector<std::string> reg_names; ///< reg id -> name as written (%r3, %p1)
    std::vector<DataType> reg_types;    ///< reg id -> declared type (.b64, .pred, ...)
    uint32_t local_bytes = 0;           ///< .local declarations, bytes per thread
    /// The module's `.file` table: id -> CUDA source path ("" for an id not declared), for
    /// Instruction::src_file.
    std::vector<std::string> source_files;
    /// Operands that take a module variable's address (patched when the module is loaded).
    std::vector<Relocation> relocations;
    uint32_t max_threads_per_cta = 0;   ///< .maxntid product, 0 if absent
    /// A CTA rerun from scratch gives the same result (no atomics, no global store to memory
    /// the kernel also loads): it may be flushed on preemption (core/idempotence.h).
    bool idempotent = false;
};

/// All kernels of one source file.
struct Module {
    std::string file;
    std::vector<Kernel> kernels;
    std::vector<ModuleVariable> variables;  ///< module-scope .global/.const data
    /// The kernel named `name`, or nullptr.
    const Kernel* find(const std::string& name) const;
};

}  // namespace stacksim::core
