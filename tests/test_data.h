// SPDX-License-Identifier: Apache-2.0
// Where tests find their data: tests/data (the project's own) or ../shared (third-party, optional).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace stacksim::test {

/// Path of `rel` under tests/data: data the project generates itself (scripts/make_test_data.sh,
/// tests/data/README.md) and ships, so a fresh clone has it.
inline std::string data_path(const std::string& rel) {
    return std::string(STACKSIM_SOURCE_DIR) + "/tests/data/" + rel;
}

/// Path of `rel` under ../shared/traces: third-party traces (Accel-Sim, Netrace) that exist only
/// beside the development checkout. A test that validates against them calls this first; when
/// the file is absent (a user's clone) the test prints why and exits 77, which ctest reports as
/// skipped (SKIP_RETURN_CODE 77 on every test; `ctest -V -R NAME` shows the reason).
inline std::string third_party_trace(const std::string& rel) {
    const std::string path = std::string(STACKSIM_SOURCE_DIR) + "/../shared/traces/" + rel;
    if (!std::filesystem::exists(path)) {
        std::printf("SKIPPED: %s is absent: this test validates against a third-party trace that exists only "
                    "beside the development checkout (../shared); the behaviour tests use tests/data\n",
                    path.c_str());
        std::fflush(stdout);
        std::exit(77);
    }
    return path;
}

}  // namespace stacksim::test
