// SPDX-License-Identifier: Apache-2.0
// Entry point of the stacksim executable (SystemC's main calls sc_main).
#include "top/cli.h"

extern "C" int sc_main(int argc, char** argv) { return stacksim::top::cli_main(argc, argv); }
