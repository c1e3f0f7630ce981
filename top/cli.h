// SPDX-License-Identifier: Apache-2.0
// The command line: `stacksim run|noc|config|sweep|plot|stats|list|--help|--version`.
#pragma once
#include <exception>

namespace stacksim::top {

/// Parses the command line, runs the command and returns the process exit code
/// (0 ok, 2 bad input, 3 simulation failure, 4 verification failed). Never throws.
int cli_main(int argc, char** argv);

/// Prints `error` to stderr as the CLI does ("stacksim: error: ..." on one line, with control
/// characters and invalid UTF-8 escaped) and returns its exit code: 2 for bad input (including
/// a path the system refuses and running out of memory), 3 for a simulation failure.
int report_error(std::exception_ptr error);

}  // namespace stacksim::top
