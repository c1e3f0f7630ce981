// SPDX-License-Identifier: Apache-2.0
// Recording of the statistics the tests produce, for the byte-identical regression check.
#pragma once
#include <string>

namespace stacksim::test {

/// With STACKSIM_STATS_RECORD=DIR set, a fresh path DIR/<test name>#<kind><n> for the next
/// record of the running test case; empty when recording is off.
std::string stats_record_path(const std::string& kind);

}  // namespace stacksim::test
