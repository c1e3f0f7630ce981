// SPDX-License-Identifier: Apache-2.0
// Issue 32: a timeline limited to a cycle window or to kernels, a VCD in real time, and the
// two-level scheduler's pending warps named as such.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <set>
#include <sstream>
#include <string>

#include "tests/system/cli_runner.h"

using namespace stacksim::test;

namespace {

nlohmann::json events(const std::string& path) { return nlohmann::json::parse(read_file(path))["traceEvents"]; }

}  // namespace

TEST_CASE("timeline: --timeline-window keeps the cycles asked for, clipping intervals", "[tracing][teaching]") {
    const std::string dir = temp_dir();
    const std::string run = "run small --workload matmul:32 --quiet --timeline ";
    REQUIRE(run_cli(run + dir + "/all.json").exit_code == 0);
    // A window of 1000 cycles from 1000 cycles into the kernel.
    uint64_t from = 0;
    for (const auto& e : events(dir + "/all.json"))
        if (e.value("cat", "") == "kernel") from = e["ts"].get<uint64_t>() + 1000;
    REQUIRE(from > 1000);
    const uint64_t to = from + 1000;
    CliResult w = run_cli(run + dir + "/w.json --timeline-window " + std::to_string(from) + ":" + std::to_string(to));
    INFO(w.output);
    REQUIRE(w.exit_code == 0);
    size_t all_issues = 0, in_window = 0, kept = 0;
    for (const auto& e : events(dir + "/all.json"))
        if (e.value("cat", "") == "issue") {
            ++all_issues;
            in_window += e["ts"].get<uint64_t>() >= from && e["ts"].get<uint64_t>() < to;
        }
    for (const auto& e : events(dir + "/w.json")) {
        if (e.value("ph", "") == "X") {
            CHECK(e["ts"].get<uint64_t>() >= from);
            CHECK(e["ts"].get<uint64_t>() + e["dur"].get<uint64_t>() <= to);
        }
        if (e.value("ph", "") == "C") CHECK(e["ts"].get<uint64_t>() >= from);
        kept += e.value("cat", "") == "issue";
    }
    CHECK(in_window > 0);
    CHECK(kept == in_window);  // every issue of the window, and only those
    CHECK(kept < all_issues);
    for (const char* bad : {"3000:2000", "x:5", "5", "-1:4"}) {
        CliResult r = run_cli(run + dir + "/b.json --timeline-window " + bad);
        INFO(bad << ": " << r.output);
        CHECK(r.exit_code == 2);
        CHECK(r.output.find("--timeline-window") != std::string::npos);
    }
}

TEST_CASE("timeline: --timeline-kernel keeps one kernel's CTAs, warps and row", "[tracing][teaching]") {
    const std::string dir = temp_dir();
    // Two applications, two kernels: vecadd and matmul.
    CliResult r = run_cli("run small --app vecadd:4096 --app matmul:32 --quiet --timeline " + dir +
                          "/k.json --timeline-kernel matmul --set run.alone_runs=false");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    std::set<std::string> kernels, ctas;
    size_t issues = 0;
    for (const auto& e : events(dir + "/k.json")) {
        const std::string cat = e.value("cat", "");
        if (cat == "kernel") kernels.insert(e["name"].get<std::string>());
        if (cat == "cta") ctas.insert(e["args"]["kernel"].get<std::string>());
        issues += cat == "issue";
    }
    CHECK(kernels == std::set<std::string>{"matmul"});
    CHECK(ctas == std::set<std::string>{"matmul"});
    CHECK(issues > 0);
    CliResult none = run_cli("run small --workload vecadd:256 --quiet --timeline " + dir +
                             "/n.json --timeline-kernel nosuch");
    CHECK(none.exit_code == 0);
    CHECK(none.output.find("--timeline-kernel nosuch: no kernel of that name ran (kernels: vecadd)") !=
          std::string::npos);
}

TEST_CASE("vcd: the timescale is picoseconds and the last stamp is the run's cycles times the core period", "[tracing]") {
    const std::string dir = temp_dir();
    CliResult r = run_cli("run small --workload vecadd:1024 --quiet --vcd " + dir + "/w.vcd --out " + dir + "/r");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const std::string vcd = read_file(dir + "/w.vcd");
    CHECK(vcd.find("$timescale 1 ps $end") != std::string::npos);
    const auto at = vcd.find(" x ");
    REQUIRE(at != std::string::npos);
    const uint64_t period = std::stoull(vcd.substr(at + 3));
    CHECK(period > 0);
    const auto last = vcd.rfind("\n#");  // the last time stamp (a '#' may also be a signal's code)
    REQUIRE(last != std::string::npos);
    const uint64_t end_ps = std::stoull(vcd.substr(last + 2));
    const auto summary = nlohmann::json::parse(read_file(dir + "/r/summary.json"));
    CHECK(end_ps == summary["cycles"].get<uint64_t>() * period);
}

TEST_CASE("watch: under the two-level scheduler a ready warp outside the active set is 'pending'", "[teaching]") {
    const std::string args = "run small --workload 2dconv --set gpu.sm.warp_scheduler=two_level --watch sm0.w8";
    CliResult r = run_cli(args + " --set gpu.sm.two_level.active_warps=1");
    INFO(r.output.substr(0, 3000));
    REQUIRE(r.exit_code == 0);
    CHECK(r.output.find("stall: pending (ready, not in the active set)") != std::string::npos);
    // Under lrr every ready warp is in the order: never pending.
    CliResult lrr = run_cli("run small --workload 2dconv --watch sm0.w8");
    CHECK(lrr.output.find("pending") == std::string::npos);
}
