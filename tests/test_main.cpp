// SPDX-License-Identifier: Apache-2.0
// Catch2 runner for test binaries; SystemC's main() calls sc_main.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>

// Runs of traces (in process and through the CLI) cache parsed traces in the build folder, not in
// the user's ~/.cache (at most 256 MiB of it); a caller's STACKSIM_TRACE_CACHE (a folder, or
// "off") and STACKSIM_TRACE_CACHE_MAX_MB are kept.
extern "C" int sc_main(int argc, char** argv) {
#ifdef STACKSIM_TEST_TRACE_CACHE
    ::setenv("STACKSIM_TRACE_CACHE", STACKSIM_TEST_TRACE_CACHE, 0);
    ::setenv("STACKSIM_TRACE_CACHE_MAX_MB", "256", 0);
#endif
    return Catch::Session().run(argc, argv);
}
