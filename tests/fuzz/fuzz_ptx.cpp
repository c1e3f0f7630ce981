// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the PTX front end (lexer, parser, kernel IR and reconvergence analysis).
#include <cstdint>
#include <string>

#include "core/reconvergence.h"
#include "tests/fuzz/fuzz_input.h"
#include "workloads/ptx_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        stacksim::core::Module m = stacksim::workloads::parse_ptx(text, "fuzz.ptx");
        (void)m;
    } catch (const stacksim::workloads::PtxError&) {
    }
    return 0;
}
