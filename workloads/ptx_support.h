// SPDX-License-Identifier: Apache-2.0
// What an unsupported PTX construct is, which CUDA feature usually produces it, and how to
// avoid it: the table behind `stacksim ptx check` and docs/ptx-subset.md.
#pragma once
#include <string>

#include "workloads/ptx_parser.h"

namespace stacksim::workloads {

/// One classified problem of ptx check.
struct PtxConstruct {
    std::string construct;     ///< short key: ".global variable", "call", "tex", "%envreg", ...
    std::string cuda_feature;  ///< the CUDA source feature that usually produces it
    std::string workaround;    ///< how to write the kernel so that it is accepted
};

/// Classifies `problem`; `source_line` is the PTX line it is on (callee names are read from
/// it: vprintf means printf, __assertfail assert).
PtxConstruct classify_ptx_problem(const PtxError& problem, const std::string& source_line);

}  // namespace stacksim::workloads
