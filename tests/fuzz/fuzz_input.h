// SPDX-License-Identifier: Apache-2.0
// Shared by the fuzz targets: the input as a file, and the rule that only input errors are expected.
#pragma once
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace stacksim::fuzz {

/// A file of this process holding the current input (readers that take a path), in $TMPDIR
/// (scripts/fuzz.sh points it at its scratch folder) or /tmp.
inline const std::string& input_path(const char* suffix) {
    static const std::string path = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                                    "/stacksim-fuzz-" + std::to_string(::getpid()) + suffix;
    return path;
}

/// Writes `bytes` to input_path(suffix) and returns the path.
inline const std::string& write_input(const uint8_t* data, size_t size, const char* suffix) {
    const std::string& path = input_path(suffix);
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f) {
        if (size) std::fwrite(data, 1, size, f);
        std::fclose(f);
    }
    return path;
}

}  // namespace stacksim::fuzz

// The stacksim libraries link SystemC, whose library defines main() and calls sc_main();
// libFuzzer brings its own main(), so this one is never called. Include once per target.
extern "C" int sc_main(int, char**) { return 0; }
