// SPDX-License-Identifier: Apache-2.0
// A CLI run whose applications must all verify, with its summary.json and stats.json parsed.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace stacksim::test {

struct VerifiedRun {
    nlohmann::json summary, stats;
};

/// `stacksim run ARGS --set run.alone_runs=false --out TMP`: REQUIREs exit code 0 and CHECKs
/// that every application verified.
VerifiedRun run_verified(const std::string& args);
/// The value of statistic `key` (REQUIREd to exist).
double stat_value(const VerifiedRun& r, const std::string& key);

}  // namespace stacksim::test
