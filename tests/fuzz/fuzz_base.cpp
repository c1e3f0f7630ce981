// SPDX-License-Identifier: Apache-2.0
// Fuzz target: config files that name each other with `base =` (chains, cycles, odd targets).
#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/error.h"
#include "tests/fuzz/fuzz_input.h"
#include "top/run_config.h"

// The input is up to 24 config files separated by lines "----", written as c0.toml, c1.toml...
// in a folder of this process; c0.toml is loaded as `stacksim run c0.toml` would (bases
// resolved from each file's folder, presets by name) and read whole. The seed corpus names
// the others (base = "c1.toml"), presets, folders, /dev/zero and itself.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::string dir = [] {
        std::string d = stacksim::fuzz::input_path(".base");
        ::mkdir(d.c_str(), 0700);
        return d;
    }();
    std::vector<std::string> files(1);
    std::string line;
    for (size_t i = 0; i <= size; ++i) {
        if (i < size && data[i] != '\n') {
            line += static_cast<char>(data[i]);
            continue;
        }
        if (line == "----") {
            if (files.size() == 24) return 0;
            files.emplace_back();
        } else {
            files.back() += line + "\n";
        }
        line.clear();
    }
    for (size_t i = 0; i < 24; ++i) {
        const std::string path = dir + "/c" + std::to_string(i) + ".toml";
        if (i < files.size()) {
            std::FILE* f = std::fopen(path.c_str(), "wb");
            if (!f) return 0;
            std::fwrite(files[i].data(), 1, files[i].size(), f);
            std::fclose(f);
        } else {
            std::remove(path.c_str());
        }
    }
    try {
        stacksim::sim::ConfigDoc doc = stacksim::top::load_config(dir + "/c0.toml");
        stacksim::top::read_run_config(doc);
    } catch (const stacksim::sim::InputError&) {
    }
    return 0;
}
