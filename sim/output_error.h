// SPDX-License-Identifier: Apache-2.0
// The error of an output that could not be written (the CLI's exit code 5).
#pragma once
#include <stdexcept>

namespace stacksim::sim {

/// An output could not be written (disk full, file size limit, I/O error): exit code 5. Not
/// the input's fault: a sweep records such a point as failed for an I/O reason.
class OutputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace stacksim::sim
