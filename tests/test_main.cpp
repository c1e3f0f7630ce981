// SPDX-License-Identifier: Apache-2.0
// Catch2 runner for test binaries; SystemC's main() calls sc_main.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

extern "C" int sc_main(int argc, char** argv) { return Catch::Session().run(argc, argv); }
