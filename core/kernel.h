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
    uint32_t max_threads_per_cta = 0;   ///< .maxntid product, 0 if absent
    /// A CTA rerun from scratch gives the same result (no atomics, no global store to memory
    /// the kernel also loads): it may be flushed on preemption (core/idempotence.h).
    bool idempotent = false;
};

/// All kernels of one source file.
struct Module {
    std::string file;
    std::vector<Kernel> kernels;
    /// The kernel named `name`, or nullptr.
    const Kernel* find(const std::string& name) const;
};

}  // namespace stacksim::core
