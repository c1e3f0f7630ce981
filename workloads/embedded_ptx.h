// SPDX-License-Identifier: Apache-2.0
// PTX text of the kernel library, embedded at build time.
#pragma once
#include <string_view>
#include <vector>

namespace stacksim::workloads {

/// One embedded file: its file name (e.g. "vecadd.ptx") and text.
struct EmbeddedFile {
    std::string_view file_name;
    std::string_view text;
};

/// Every workloads/kernels/*.ptx, sorted by file name.
const std::vector<EmbeddedFile>& embedded_ptx();

}  // namespace stacksim::workloads
