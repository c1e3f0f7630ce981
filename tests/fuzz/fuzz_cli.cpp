// SPDX-License-Identifier: Apache-2.0
// Fuzz target: `stacksim run`'s command line and every check made before simulating.
#include <boost/program_options/errors.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "sim/error.h"
#include "tests/fuzz/fuzz_input.h"
#include "top/run_command.h"

// The input is the argument list after `stacksim run`, NUL-separated. prepare_run() has no side
// effects (nothing is created or written), so any argument is safe to try.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::vector<std::string> args(1);
    for (size_t i = 0; i < size; ++i) {
        if (data[i] == 0)
            args.emplace_back();
        else
            args.back() += static_cast<char>(data[i]);
    }
    if (args.size() > 64) return 0;
    try {
        stacksim::top::prepare_run(stacksim::top::parse_run_options(args));
    } catch (const stacksim::sim::InputError&) {
    } catch (const boost::program_options::error&) {
    }
    return 0;
}
