// SPDX-License-Identifier: Apache-2.0
// Recording of the statistics the tests produce, for the byte-identical regression check.
#include "tests/system/stats_record.h"

#include <catch2/catch.hpp>

#include <cctype>
#include <cstdlib>
#include <filesystem>

namespace stacksim::test {

std::string stats_record_path(const std::string& kind) {
    const char* root = std::getenv("STACKSIM_STATS_RECORD");
    if (!root || !*root) return "";
    std::string name = Catch::getResultCapture().getCurrentTestName();
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    // Numbered by what exists already, so runs in forked children get distinct names too.
    for (unsigned n = 0;; ++n) {
        std::string p = std::string(root) + "/" + name + "#" + kind + std::to_string(n);
        if (!std::filesystem::exists(p) && !std::filesystem::exists(p + ".json")) return p;
    }
}

}  // namespace stacksim::test
