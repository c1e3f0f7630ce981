// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the Accel-Sim .traceg reader (header, thread blocks, warps, instructions).
#include <cstdint>
#include <string>

#include "sim/error.h"
#include "tests/fuzz/fuzz_input.h"
#include "workloads/accelsim_trace.h"
#include "workloads/trace_codec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string& path = stacksim::fuzz::write_input(data, size, ".traceg");
    try {
        auto kernel = stacksim::workloads::read_traceg(path);
        // The trace cache's binary form reads back (in memory: this target writes no cache file).
        const std::string bytes = stacksim::workloads::encode_trace_kernel(*kernel, {}, false);
        if (!bytes.empty() && !stacksim::workloads::decode_trace_kernel(bytes, {}, path)) __builtin_trap();
    } catch (const stacksim::sim::InputError&) {
    }
    return 0;
}
