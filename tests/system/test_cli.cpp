// SPDX-License-Identifier: Apache-2.0
// End-to-end: the CLI's default run, outputs, determinism and its bad-input exit codes.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "tests/system/cli_runner.h"

using namespace stacksim::test;

namespace {
int lines(const std::string& s) {
    int n = 0;
    for (char c : s) n += c == '\n';
    return n;
}
std::string kernels_dir() { return std::string(STACKSIM_SOURCE_DIR) + "/workloads/kernels"; }
}  // namespace

TEST_CASE("cli: `stacksim run` with no arguments simulates, verifies and prints the summary", "[cli]") {
    CliResult r = run_cli("run");
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK(r.output.find("vecadd") != std::string::npos);
    CHECK(r.output.find("verification: PASSED") != std::string::npos);
    CHECK(r.output.find("IPC") != std::string::npos);
    CHECK(r.output.find("warp-instructions/s") != std::string::npos);
    CHECK(r.output.find("cycles/s") != std::string::npos);
}

TEST_CASE("cli: --out writes stats.json, summary.json and the effective config", "[cli]") {
    std::string dir = temp_dir();
    CliResult r = run_cli("run small --workload saxpy:2048 --seed 3 --out " + dir);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    auto stats = nlohmann::json::parse(read_file(dir + "/stats.json"));
    auto summary = nlohmann::json::parse(read_file(dir + "/summary.json"));
    CHECK(stats["gpu.warp_instructions"]["value"].get<double>() == summary["warp_instructions"].get<double>());
    CHECK(summary["verification"]["passed"] == true);
    CHECK(summary["verification"]["checked"] == 2048);
    std::string cfg = read_file(dir + "/config.toml");
    CHECK(cfg.find("workload = 'saxpy'") != std::string::npos);
    CHECK(cfg.find("seed = 3") != std::string::npos);
    // The effective config reproduces the run.
    std::string dir2 = temp_dir();
    CliResult again = run_cli("run " + dir + "/config.toml --out " + dir2 + " --quiet");
    INFO(again.output);
    CHECK(again.exit_code == 0);
    CHECK(read_file(dir + "/stats.json") == read_file(dir2 + "/stats.json"));
}

TEST_CASE("cli: two identical runs write byte-identical stats.json", "[cli][determinism]") {
    std::string a = temp_dir(), b = temp_dir();
    std::string args = "run small --workload reduction:8192 --seed 11 --set gpu.sm.warp_scheduler=gto --quiet --out ";
    REQUIRE(run_cli(args + a).exit_code == 0);
    REQUIRE(run_cli(args + b).exit_code == 0);
    std::string sa = read_file(a + "/stats.json");
    CHECK(sa.size() > 1000);
    CHECK(sa == read_file(b + "/stats.json"));
}

TEST_CASE("cli: a misspelled config key exits 2 naming file, line and key", "[cli][errors]") {
    std::string dir = temp_dir();
    write_file(dir + "/bad.toml", "[gpu]\nnum_sms = 2\n[gpu.sm]\nwarp_schedular = \"gto\"\n");
    CliResult r = run_cli("run " + dir + "/bad.toml");
    CHECK(r.exit_code == 2);
    CHECK(lines(r.output) == 1);
    CHECK(r.output.find(dir + "/bad.toml:4: unknown key 'gpu.sm.warp_schedular'") != std::string::npos);
}

TEST_CASE("cli: a wrong-typed --set exits 2 naming the key", "[cli][errors]") {
    CliResult r = run_cli("run --set gpu.num_sms=lots");
    CHECK(r.exit_code == 2);
    CHECK(lines(r.output) == 1);
    CHECK(r.output.find("--set gpu.num_sms=lots: gpu.num_sms: expected integer, got string") != std::string::npos);
}

TEST_CASE("cli: an unknown workload exits 2 and lists the known ones", "[cli][errors]") {
    CliResult r = run_cli("run --workload vecsub");
    CHECK(r.exit_code == 2);
    CHECK(lines(r.output) == 1);
    CHECK(r.output.find("unknown workload 'vecsub'") != std::string::npos);
    CHECK(r.output.find("vecadd") != std::string::npos);
}

TEST_CASE("cli: a PTX file with an unknown opcode exits 2 naming file and line", "[cli][errors]") {
    std::string dir = temp_dir();
    std::string ptx = read_file(kernels_dir() + "/vecadd.ptx");
    auto pos = ptx.find("add.f32");
    REQUIRE(pos != std::string::npos);
    ptx.replace(pos, 7, "frob.f32");
    size_t line = 1;
    for (size_t i = 0; i < pos; ++i) line += ptx[i] == '\n';
    write_file(dir + "/vecadd.ptx", ptx);
    CliResult r = run_cli("run small --workload vecadd:256 --ptx-dir " + dir);
    INFO(r.output);
    CHECK(r.exit_code == 2);
    CHECK(lines(r.output) == 1);
    CHECK(r.output.find(dir + "/vecadd.ptx:" + std::to_string(line) + ":") != std::string::npos);
    CHECK(r.output.find("frob") != std::string::npos);
}

TEST_CASE("cli: malformed command lines exit 2", "[cli][errors]") {
    CHECK(run_cli("run --no-such-flag").exit_code == 2);
    CHECK(run_cli("fly").exit_code == 2);
    CHECK(run_cli("run /nonexistent/config.toml").exit_code == 2);
    CHECK(run_cli("run --workload vecadd:abc").exit_code == 2);
    CHECK(run_cli("run --workload vecadd:0").exit_code == 2);
    CHECK(run_cli("--version").exit_code == 0);
    CHECK(run_cli("--help").exit_code == 0);
}

TEST_CASE("cli: a kernel that never finishes trips the watchdog with exit 3", "[cli][errors]") {
    std::string dir = temp_dir();
    std::string ptx = read_file(kernels_dir() + "/vecadd.ptx");
    auto pos = ptx.find("ret;");
    REQUIRE(pos != std::string::npos);
    ptx.replace(pos, 4, "$L__spin:\n\tbra.uni $L__spin;");
    write_file(dir + "/vecadd.ptx", ptx);
    CliResult r = run_cli("run small --workload vecadd:256 --set gpu.watchdog_cycles=200000 --ptx-dir " + dir);
    INFO(r.output);
    CHECK(r.exit_code == 3);
    CHECK(r.output.find("deadlock watchdog") != std::string::npos);
    CHECK(r.output.find("warp") != std::string::npos);
}

TEST_CASE("cli: a wrong output exits 4", "[cli][errors]") {
    std::string dir = temp_dir();
    std::string ptx = read_file(kernels_dir() + "/vecadd.ptx");
    auto pos = ptx.find("add.f32");
    REQUIRE(pos != std::string::npos);
    ptx.replace(pos, 7, "sub.f32");
    write_file(dir + "/vecadd.ptx", ptx);
    CliResult r = run_cli("run small --workload vecadd:256 --ptx-dir " + dir);
    INFO(r.output);
    CHECK(r.exit_code == 4);
    CHECK(r.output.find("verification: FAILED") != std::string::npos);
}

TEST_CASE("cli: list shows presets, workloads and policies", "[cli]") {
    CliResult r = run_cli("list");
    CHECK(r.exit_code == 0);
    for (const char* s :
         {"gtx980", "small", "vecadd", "matmul", "2dconv", "atax", "lrr", "gto", "dll", "localbuf", "destdetect", "yx"})
        CHECK(r.output.find(s) != std::string::npos);
}
