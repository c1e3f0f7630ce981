// SPDX-License-Identifier: Apache-2.0
// A CLI run whose applications must all verify, with its summary.json and stats.json parsed.
#include "tests/system/verified_run.h"

#include <catch2/catch.hpp>

#include "tests/system/cli_runner.h"

namespace stacksim::test {

VerifiedRun run_verified(const std::string& args) {
    const std::string dir = temp_dir();
    const CliResult r = run_cli("run " + args + " --set run.alone_runs=false --out " + dir);
    INFO(args << ":\n" << r.output);
    REQUIRE(r.exit_code == 0);
    VerifiedRun out;
    out.summary = nlohmann::json::parse(read_file(dir + "/summary.json"));
    out.stats = nlohmann::json::parse(read_file(dir + "/stats.json"));
    for (auto& a : out.summary["applications"]) CHECK(a["verification"]["passed"] == true);
    return out;
}

double stat_value(const VerifiedRun& r, const std::string& key) {
    INFO(key);
    REQUIRE(r.stats.contains(key));
    return r.stats[key]["value"].get<double>();
}

}  // namespace stacksim::test
