// SPDX-License-Identifier: Apache-2.0
// Trace runs through the trace cache: stats.json byte-identical cold, warm and with the cache off.
#include <catch2/catch.hpp>

#include <filesystem>

#include "tests/system/cli_runner.h"
#include "tests/test_data.h"

using namespace stacksim::test;
namespace fs = std::filesystem;

namespace {

/// stats.json of `stacksim run PRESET --trace LIST EXTRA`.
std::string stats_of(const std::string& preset, const std::string& list, const std::string& extra) {
    const std::string dir = temp_dir();
    const CliResult r = run_cli("run " + preset + " --trace " + list + " --quiet --out " + dir + " " + extra);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    return read_file(dir + "/stats.json");
}

size_t files_in(const std::string& dir) {
    return fs::exists(dir) ? static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator())) : 0;
}

}  // namespace

TEST_CASE("trace cache: a trace run's stats are byte-identical with the cache cold, warm and off", "[trace][cache][cli]") {
    std::vector<std::pair<std::string, std::string>> cases = {
        {"gtx1080", data_path("accelsim/vecadd-256/kernelslist.g")}};
    const std::string real = std::string(STACKSIM_SOURCE_DIR) + "/../shared/traces/accelsim/vectoradd-100-32/kernelslist.g";
    if (fs::exists(real)) cases.emplace_back("gtx1080", real);
    for (const auto& [preset, list] : cases) {
        INFO(list);
        const std::string cache = temp_dir() + "/cache";
        const std::string off = stats_of(preset, list, "--trace-cache off");
        CHECK(files_in(cache) == 0);
        const std::string cold = stats_of(preset, list, "--trace-cache " + cache);
        CHECK(files_in(cache) == 1);
        const std::string warm = stats_of(preset, list, "--trace-cache " + cache);
        CHECK(cold == off);
        CHECK(warm == off);
        // The environment chooses the folder when no option is given.
        const std::string env_cache = temp_dir() + "/env-cache";
        const CliResult r = run_shell("STACKSIM_TRACE_CACHE=" + env_cache + " " + STACKSIM_BINARY + " run " + preset +
                                      " --trace " + list + " --quiet");
        CHECK(r.exit_code == 0);
        CHECK(files_in(env_cache) == 1);
    }
}

TEST_CASE("trace cache: a bad trace gives the same one-line error with the cache on and off", "[trace][cache][cli]") {
    const std::string dir = temp_dir();
    write_file(dir + "/kernelslist.g", "kernel-1.traceg\n");
    std::string text = read_file(data_path("accelsim/vecadd-256/kernel-1.traceg"));
    text.replace(text.find("FADD"), 4, "FOOP");
    write_file(dir + "/kernel-1.traceg", text);
    const CliResult on = run_cli("run gtx1080 --trace " + dir + "/kernelslist.g --trace-cache " + dir + "/cache");
    const CliResult off = run_cli("run gtx1080 --trace " + dir + "/kernelslist.g --trace-cache off");
    INFO(on.output);
    CHECK(on.exit_code == 2);
    CHECK(off.exit_code == 2);
    CHECK(on.output == off.output);
    CHECK(on.output.find("kernel-1.traceg:") != std::string::npos);
    CHECK(on.output.find("'FOOP'") != std::string::npos);
    CHECK(files_in(dir + "/cache") == 0);
}
