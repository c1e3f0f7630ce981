// SPDX-License-Identifier: Apache-2.0
// The command line: `stacksim run|noc|config|sweep|plot|stats|list|--help|--version`.
#pragma once

namespace stacksim::top {

/// Parses the command line, runs the command and returns the process exit code
/// (0 ok, 2 bad input, 3 simulation failure, 4 verification failed). Never throws.
int cli_main(int argc, char** argv);

}  // namespace stacksim::top
