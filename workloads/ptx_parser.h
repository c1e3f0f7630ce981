// SPDX-License-Identifier: Apache-2.0
// PTX front end: turns the PTX text nvcc emits for ordinary kernels into the kernel IR.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/kernel.h"

namespace stacksim::workloads {

/// A PTX syntax or support error. what() is one line: `FILE:LINE: message 'token'`.
class PtxError : public std::runtime_error {
public:
    PtxError(const std::string& file, uint32_t line, const std::string& message,
             std::string_view token);
    /// Source line of the error (1-based).
    uint32_t line() const { return m_line; }
    /// The message without file, line and token.
    const std::string& message() const { return m_message; }
    /// The offending token as written.
    const std::string& token() const { return m_token; }

private:
    uint32_t m_line;
    std::string m_message;
    std::string m_token;
};

/// Parses a PTX module (see docs/ptx-subset.md for the supported subset). `file_name` is used
/// in error messages and recorded in the kernels. Throws PtxError on anything unsupported.
core::Module parse_ptx(std::string_view text, const std::string& file_name);

/// What check_ptx() found in one module: the kernels it could read and every problem.
struct PtxCheck {
    core::Module module;             ///< every .entry, including those with problems
    std::vector<bool> kernel_clean;  ///< per module.kernels[i]: parsed without a problem
    std::vector<PtxError> problems;  ///< in source order of discovery, one per construct use
};

/// Parses like parse_ptx() but recovers after each unsupported instruction, directive or
/// declaration (skipping to its ';' or past its { } block) and collects every problem instead
/// of stopping at the first. Device-function bodies are read for their problems too. Throws
/// PtxError only for a file it cannot tokenize.
PtxCheck check_ptx(std::string_view text, const std::string& file_name);

}  // namespace stacksim::workloads
