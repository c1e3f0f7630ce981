// SPDX-License-Identifier: Apache-2.0
// PTX front end: turns the PTX text nvcc emits for ordinary kernels into the kernel IR.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/kernel.h"

namespace stacksim::workloads {

/// A PTX syntax or support error. what() is one line: `FILE:LINE: message 'token'`.
class PtxError : public std::runtime_error {
public:
    PtxError(const std::string& file, uint32_t line, const std::string& message,
             std::string_view token);
    /// Source line of the error (1-based).
    uint32_t line() const { return m_line; }

private:
    uint32_t m_line;
};

/// Parses a PTX module (see docs/ptx-subset.md for the supported subset). `file_name` is used
/// in error messages and recorded in the kernels. Throws PtxError on anything unsupported.
core::Module parse_ptx(std::string_view text, const std::string& file_name);

}  // namespace stacksim::workloads
