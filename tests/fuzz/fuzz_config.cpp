// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the TOML config reader and every section of `stacksim run`'s configuration.
#include <cstdint>
#include <string>

#include "sim/error.h"
#include "tests/fuzz/fuzz_input.h"
#include "top/run_config.h"

// Anything but a clean InputError (ConfigError) escaping is a finding: libFuzzer reports the
// uncaught exception, and ASan/UBSan anything worse.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        stacksim::sim::ConfigDoc doc = stacksim::sim::ConfigDoc::from_string(text, "fuzz.toml");
        stacksim::top::read_run_config(doc);
    } catch (const stacksim::sim::InputError&) {
    }
    return 0;
}
