// SPDX-License-Identifier: Apache-2.0
// End-to-end: each command's --help, and the run header naming the preset a config stands on.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "tests/system/cli_runner.h"

using namespace stacksim::test;

namespace {
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("cli help: `stacksim run --help` describes every option", "[cli][help]") {
    CliResult r = run_cli("run --help");
    INFO(r.output);
    CHECK(r.exit_code == 0);
    for (const char* option : {"--workload", "--set", "--seed", "--trace", "--out", "--ptx-dir", "--quiet", "--watch",
                               "--timeline", "--timeline-sms", "--samples", "--sample-every", "--sample-stat", "--vcd",
                               "--vcd-signal", "--app"})
        CHECK(has(r.output, option));
    CHECK(has(r.output, "override one config key"));
    CHECK(has(r.output, "base = \"gtx980\""));
    CHECK(has(r.output, "Exit codes"));
    CHECK(run_cli("run -h").output == r.output);
}

TEST_CASE("cli help: `stacksim noc --help` and `stacksim config --help` describe their options", "[cli][help]") {
    CliResult noc = run_cli("noc --help");
    INFO(noc.output);
    CHECK(noc.exit_code == 0);
    for (const char* option : {"--rate R", "--rates A:B:STEP", "--saturation", "--trace", "--pattern", "--set", "--out"})
        CHECK(has(noc.output, option));
    CHECK(has(noc.output, "curve.csv"));
    CliResult config = run_cli("config --help");
    INFO(config.output);
    CHECK(config.exit_code == 0);
    for (const char* option : {"--list [SECTION]", "--markdown", "--set"}) CHECK(has(config.output, option));
    CHECK(has(config.output, "base"));
}

TEST_CASE("cli help: the top-level help lists every command and the options the issue found missing",
          "[cli][help]") {
    CliResult r = run_cli("--help");
    INFO(r.output);
    CHECK(r.exit_code == 0);
    for (const char* part : {"stacksim run", "stacksim noc", "stacksim config", "stacksim list", "--saturation",
                             "--trace FILE.tra.bz2", "--trace KERNELSLIST", "--samples", "--vcd", "COMMAND --help",
                             "stacksim trace export"})
        CHECK(has(r.output, part));
}

TEST_CASE("cli: the run header says which preset a config file stands on", "[cli][config][base]") {
    const std::string dir = temp_dir();
    write_file(dir + "/on_preset.toml", "base = \"gtx980\"\n[gpu]\nnum_sms = 8\n");
    write_file(dir + "/bare.toml", "[gpu]\nnum_sms = 8\n");
    CliResult on = run_cli("run " + dir + "/on_preset.toml --out " + dir + "/on");
    INFO(on.output);
    REQUIRE(on.exit_code == 0);
    CHECK(has(on.output, "on_preset.toml (base: preset gtx980.toml): 8 SMs"));
    auto summary = nlohmann::json::parse(read_file(dir + "/on/summary.json"));
    CHECK(summary["config_bases"] == nlohmann::json::array({"preset gtx980.toml"}));
    // The effective config stands alone and reproduces the run.
    const std::string cfg = read_file(dir + "/on/config.toml");
    CHECK(!has(cfg, "base ="));
    CHECK(has(cfg, "model = 'hierarchy'"));
    CliResult again = run_cli("run " + dir + "/on/config.toml --quiet --out " + dir + "/again");
    CHECK(again.exit_code == 0);
    CHECK(read_file(dir + "/on/stats.json") == read_file(dir + "/again/stats.json"));

    CliResult bare = run_cli("run " + dir + "/bare.toml --quiet --out " + dir + "/bare");
    REQUIRE(bare.exit_code == 0);
    CHECK(run_cli("run " + dir + "/bare.toml").output.find("bare.toml (no base: built-in defaults)") !=
          std::string::npos);
    // The issue's example: the same keys on gtx980 give gtx980's memory hierarchy, not the simple memory.
    auto cycles = [](const std::string& out_dir) {
        return nlohmann::json::parse(read_file(out_dir + "/summary.json"))["kernel_cycles"].get<double>();
    };
    CHECK(cycles(dir + "/on") != cycles(dir + "/bare"));

    CliResult shown = run_cli("config " + dir + "/on_preset.toml");
    CHECK(shown.exit_code == 0);
    CHECK(has(shown.output, "# effective configuration of " + dir + "/on_preset.toml (base: preset gtx980.toml)"));
    CHECK(has(shown.output, "num_sms = 8"));
}

TEST_CASE("cli: a config file whose base is missing or makes a cycle exits 2 naming file and line",
          "[cli][config][base][errors]") {
    const std::string dir = temp_dir();
    write_file(dir + "/a.toml", "base = \"b.toml\"\n");
    write_file(dir + "/b.toml", "\nbase = \"a.toml\"\n");
    write_file(dir + "/typo.toml", "base = \"gtx98\"\n");
    CliResult cycle = run_cli("run " + dir + "/a.toml");
    INFO(cycle.output);
    CHECK(cycle.exit_code == 2);
    CHECK(has(cycle.output, dir + "/b.toml:2: base: 'a.toml' makes a cycle"));
    CliResult typo = run_cli("run " + dir + "/typo.toml");
    INFO(typo.output);
    CHECK(typo.exit_code == 2);
    CHECK(has(typo.output, dir + "/typo.toml:1: base: 'gtx98' is neither a preset nor a file"));
}
