// SPDX-License-Identifier: Apache-2.0
// End-to-end: `stacksim noc` outputs: the effective config beside the curve, clean rates, rate 0.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "tests/system/cli_runner.h"

using namespace stacksim::test;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

std::string first_cell(const std::string& line) { return line.substr(0, line.find(',')); }

}  // namespace

TEST_CASE("noc cli: --out writes curve.csv with the rates as given and the effective config that reproduces it",
          "[noc][cli]") {
    const std::string dir = temp_dir();
    const std::string small = " --set noc.width=4 --set noc.height=4 --set traffic.warmup=200 --set traffic.measure=1000";
    CliResult r = run_cli("noc --rates 0.05:0.35:0.1 --pattern transpose" + small + " --out " + dir + "/a");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const auto rows = lines_of(read_file(dir + "/a/curve.csv"));
    REQUIRE(rows.size() == 5);
    // 0.05 + 3 x 0.1 is written 0.35, not 0.35000000000000003.
    CHECK(first_cell(rows[1]) == "0.05");
    CHECK(first_cell(rows[2]) == "0.15");
    CHECK(first_cell(rows[3]) == "0.25");
    CHECK(first_cell(rows[4]) == "0.35");
    const std::string cfg = read_file(dir + "/a/config.toml");
    CHECK(cfg.find("pattern = 'transpose'") != std::string::npos);
    CHECK(cfg.find("width = 4") != std::string::npos);
    CliResult again = run_cli("noc " + dir + "/a/config.toml --rates 0.05:0.35:0.1 --out " + dir + "/b");
    INFO(again.output);
    REQUIRE(again.exit_code == 0);
    CHECK(read_file(dir + "/a/curve.csv") == read_file(dir + "/b/curve.csv"));
}

TEST_CASE("noc cli: at rate 0 nothing is measured, and the latencies say so instead of 0", "[noc][cli]") {
    const std::string dir = temp_dir();
    CliResult r = run_cli("noc --rate 0 --set noc.width=4 --set noc.height=4 --set traffic.measure=500 --out " + dir);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    bool row_seen = false;
    for (const auto& l : lines_of(r.output))
        if (l.rfind("  0.0000", 0) == 0) {
            row_seen = true;
            CHECK(l.find(" - ") != std::string::npos);
            CHECK(l.find(" 0.00 ") == std::string::npos);
        }
    CHECK(row_seen);
    const auto rows = lines_of(read_file(dir + "/curve.csv"));
    REQUIRE(rows.size() == 2);
    CHECK(rows[1].rfind("0,0.000000,0.000000,,,,0,0,", 0) == 0);  // empty packet/network latency and hops
}

TEST_CASE("noc cli: --out refuses a non-empty folder (no mixing of two runs) and --force replaces only noc results",
          "[noc][cli][errors]") {
    const std::string dir = temp_dir();
    const std::string small = " --rate 0.05 --set noc.width=4 --set noc.height=4 --set traffic.measure=500";
    REQUIRE(run_cli("noc" + small + " --out " + dir + "/a").exit_code == 0);
    const std::string first = read_file(dir + "/a/curve.csv");
    CHECK(read_file(dir + "/a/.stacksim-results") == "noc\n");
    CliResult again = run_cli("noc" + small + " --pattern transpose --out " + dir + "/a");
    INFO(again.output);
    CHECK(again.exit_code == 2);
    CHECK(again.output.find("--force") != std::string::npos);
    CHECK(read_file(dir + "/a/curve.csv") == first);
    REQUIRE(run_cli("noc" + small + " --pattern transpose --out " + dir + "/a --force").exit_code == 0);
    CHECK(read_file(dir + "/a/config.toml").find("transpose") != std::string::npos);
    // A folder that holds no stacksim noc results is never replaced, --force or not.
    std::filesystem::create_directories(dir + "/mine");
    write_file(dir + "/mine/notes.txt", "mine");
    for (const char* force : {"", " --force"}) {
        CliResult r = run_cli("noc" + small + " --out " + dir + "/mine" + force);
        INFO(r.output);
        CHECK(r.exit_code == 2);
        CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
        CHECK(read_file(dir + "/mine/notes.txt") == "mine");
    }
}
