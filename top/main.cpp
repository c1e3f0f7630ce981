// SPDX-License-Identifier: Apache-2.0
// Entry point of the stacksim executable.
#include <cstdlib>

#include <systemc>

#include "top/cli.h"

extern "C" int sc_main(int argc, char** argv) { return stacksim::top::cli_main(argc, argv); }

// Our own main so that SystemC's banner is off before SystemC starts; users get clean output.
int main(int argc, char** argv) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
