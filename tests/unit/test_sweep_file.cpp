// SPDX-License-Identifier: Apache-2.0
// Tests of sweep files: grid, zipped axes and explicit points, and the errors of bad files.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <fstream>
#include <string>

#include "sim/error.h"
#include "top/sweep_file.h"
#include "top/sweep_plan.h"

using stacksim::top::SweepFile;
using stacksim::top::SweepPlan;

namespace {

std::string write_sweep(const std::string& name, const std::string& text) {
    const std::string path = "/tmp/stacksim-sweep-unit-" + name + ".toml";
    std::ofstream(path) << text;
    return path;
}

std::string labels(const SweepFile& f) {
    std::string out;
    for (const auto& p : f.expand()) {
        for (size_t i = p.first_axis; i < p.values.size(); ++i) out += p.values[i].display + (i + 1 < p.values.size() ? "," : "");
        out += ";";
    }
    return out;
}

std::string error_of(const std::string& name, const std::string& text) {
    try {
        SweepPlan::build(SweepFile::read(write_sweep(name, text)));
    } catch (const stacksim::sim::InputError& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("sweep file: grid axes form a product, first axis outermost, in the order written", "[sweep]") {
    auto f = SweepFile::read(write_sweep("grid", "[base]\nconfig = \"small\"\n[grid]\nworkload = [\"vecadd\", \"saxpy\"]\n"
                                                 "\"gpu.sm.warp_scheduler\" = [\"lrr\", \"gto\", \"two_level\"]\n"));
    CHECK(labels(f) == "vecadd,lrr;vecadd,gto;vecadd,two_level;saxpy,lrr;saxpy,gto;saxpy,two_level;");
    REQUIRE(f.expand().front().first_axis == 1);
    CHECK(f.expand().front().values.front().axis == "config");
    CHECK(f.varied_keys() == std::vector<std::string>{"gpu.sm.warp_scheduler"});
}

TEST_CASE("sweep file: zipped axes advance together and explicit points follow the product", "[sweep]") {
    auto f = SweepFile::read(write_sweep("zip", "[grid]\nseed = [1, 2]\n"
                                                "[[zip]]\ngpu.num_sms = [4, 8, 16]\nmemory.l2.size_bytes = [65536, 131072, 262144]\n"
                                                "[[point]]\nworkload = \"bfs:4000\"\n"));
    CHECK(labels(f) == "1,4,65536;1,8,131072;1,16,262144;2,4,65536;2,8,131072;2,16,262144;bfs:4000;");
    CHECK(f.varied_keys() == std::vector<std::string>{"gpu.num_sms", "memory.l2.size_bytes"});
}

TEST_CASE("sweep file: without axes the base is the one point, and values keep their kind as TOML", "[sweep]") {
    auto f = SweepFile::read(write_sweep("base", "[base]\n\"memory.l2.hit_latency\" = 90\nuvm.capacity_fraction = 2.0\n"
                                                 "host.timed_copies = false\nworkload = \"vecadd\"\n"));
    auto points = f.expand();
    REQUIRE(points.size() == 1);
    REQUIRE(points[0].values.size() == 4);
    CHECK(points[0].values[0].toml == "90");
    CHECK(points[0].values[1].toml == "2.0");  // stays a float, so an integer key still rejects it
    CHECK(points[0].values[2].toml == "false");
    CHECK(points[0].values[3].toml == "\"vecadd\"");
    CHECK(points[0].values[3].where.find("base.toml:5") != std::string::npos);
}

TEST_CASE("sweep file: the results folder defaults to the file's path without .toml", "[sweep]") {
    CHECK(SweepFile::read(write_sweep("out", "")).out() == "/tmp/stacksim-sweep-unit-out");
    CHECK(SweepFile::read(write_sweep("out2", "[sweep]\nout = \"elsewhere\"\n")).out() == "/tmp/elsewhere");
}

TEST_CASE("sweep file: bad files name the file, line and key", "[sweep][errors]") {
    const std::string f = "/tmp/stacksim-sweep-unit-";
    CHECK(error_of("e1", "[grid]\nseed = []\n") == f + "e1.toml:2: grid.seed: empty axis: give at least one value");
    CHECK(error_of("e2", "[grid]\ngpu.num_smss = [1, 2]\n") == f + "e2.toml:2: unknown key 'gpu.num_smss'");
    CHECK(error_of("e3", "[grid]\ngpu.num_sms = [4, 0]\n") == f + "e3.toml:2: gpu.num_sms: must be 1..1024, got 0");
    CHECK(error_of("e4", "[base]\n\n\"gpu.num_sms\" = \"many\"\n") ==
          f + "e4.toml:3: gpu.num_sms: expected integer, got string");
    CHECK(error_of("e5", "[[zip]]\nseed = [1, 2]\ngpu.num_sms = [4]\n") ==
          f + "e5.toml:3: zip.gpu.num_sms: 1 values, but zip.seed has 2: zipped axes need the same length");
    CHECK(error_of("e6", "[grid]\nseed = [1]\n[[zip]]\nseed = [2]\n") ==
          f + "e6.toml:4: zip.seed: axis already varied at " + f + "e6.toml:2");
    CHECK(error_of("e7", "[sweep]\njobs = 4\n") == f + "e7.toml:2: sweep.jobs: unknown setting (known: out, stats, timeout)");
    CHECK(error_of("e8", "[grids]\nseed = [1]\n").find(f + "e8.toml:1: grids: unknown table") == 0);
    CHECK(error_of("e9", "[[point]]\nseed = 3\n[[point]]\nseed = 3\n") ==
          f + "e9.toml:4: point: the same effective configuration as the point at " + f + "e9.toml:2");
    CHECK(error_of("e10", "[grid]\nworkload = [\"vecadd\", \"vecad\"]\n").find(f + "e10.toml:2: workload: unknown workload 'vecad'") == 0);
    CHECK(error_of("e11", "[base]\nsize = 0\n") == f + "e11.toml:2: size: expected a positive integer");
    CHECK(error_of("e12", "[sweep]\nstats = [\"gpu.smN.warp_instructions\"]\n").find(f + "e12.toml:2: sweep.stats: no statistic") == 0);
    CHECK(error_of("e13", "[base]\nconfig = \"nonesuch\"\n") == f + "e13.toml:2: config: 'nonesuch' is no preset and no file");
    CHECK(error_of("e14", "[grid]\nseed = 1\n") == f + "e14.toml:2: grid.seed: an axis is an array of values, e.g. [1, 2]");
    CHECK(error_of("e15", "[base]\nconfig = \"small\"\n[grid]\nmemory.interconnect = [\"mesh\"]\n").find(
              f + "e15.toml:4: memory.interconnect: a router network needs") == 0);
    // An error of the config file itself names that file and the point it broke.
    std::ofstream(f + "badcfg.toml") << "[gpu]\nnum_smz = 1\n";
    CHECK(error_of("e16", "[base]\nconfig = \"stacksim-sweep-unit-badcfg.toml\"\n") ==
          f + "e16.toml:2: point [base]: " + f + "badcfg.toml:2: unknown key 'gpu.num_smz'");
    std::ofstream(f + "trace.g") << "kernel-1.traceg\n";
    CHECK(error_of("e17", "[[point]]\nworkload = \"vecadd\"\ntrace = \"stacksim-sweep-unit-trace.g\"\n") ==
          f + "e17.toml:3: trace: a point runs a trace or a workload, not both (workload at " + f + "e17.toml:2)");
}

TEST_CASE("sweep file: a point's folder name is the hash of its effective configuration", "[sweep]") {
    // The same point reached by two different files: same effective configuration, same hash.
    auto a = SweepPlan::build(SweepFile::read(write_sweep("h1", "[base]\nconfig = \"small\"\nseed = 3\n")));
    auto b = SweepPlan::build(SweepFile::read(write_sweep("h2", "[grid]\nconfig = [\"small\", \"gtx980\"]\n\"run.seed\" = [3]\n")));
    REQUIRE(a.points().size() == 1);
    REQUIRE(b.points().size() == 2);
    CHECK(a.points()[0].hash == b.points()[0].hash);
    CHECK(a.points()[0].hash != b.points()[1].hash);
    CHECK(a.points()[0].hash.size() == 12);
    CHECK(a.points()[0].args == std::vector<std::string>{"run", "small", "--set", "run.seed=3"});
}

TEST_CASE("sweep file: an apps axis gives each point a list of applications (--app), replacing [base]'s workload",
          "[sweep]") {
    auto plan = SweepPlan::build(SweepFile::read(
        write_sweep("apps", "[base]\nconfig = \"small\"\nworkload = \"vecadd:4096\"\n"
                            "[grid]\napps = [[\"matmul:64\", \"bfs:2000@5us\"], \"bfs:2000^1\"]\n[[point]]\nseed = 3\n")));
    REQUIRE(plan.points().size() == 3);
    CHECK(plan.columns() == std::vector<std::string>{"config", "workload", "size", "seed", "apps"});
    CHECK(plan.points()[0].args == std::vector<std::string>{"run", "small", "--app", "matmul:64", "--app", "bfs:2000@5us"});
    CHECK(plan.points()[0].values == std::vector<std::string>{"small", "", "", "1", "matmul:64+bfs:2000@5us"});
    CHECK(plan.points()[1].args == std::vector<std::string>{"run", "small", "--app", "bfs:2000^1"});
    // The explicit point has no apps: [base]'s workload applies.
    CHECK(plan.points()[2].values == std::vector<std::string>{"small", "vecadd", "4096", "3", ""});
    // The applications are part of the effective configuration, so of the folder name.
    CHECK(plan.points()[0].hash != plan.points()[1].hash);

    const std::string f = "/tmp/stacksim-sweep-unit-";
    CHECK(error_of("a1", "[grid]\napps = [[\"matmul\", \"nosuch\"]]\n") ==
          f + "a1.toml:2: apps: --app nosuch: unknown workload 'nosuch' (stacksim list)");
    CHECK(error_of("a2", "[grid]\napps = [[]]\n") ==
          f + "a2.toml:2: apps: expected an application NAME[:SIZE][@START][^PRIORITY] or an array of them");
    CHECK(error_of("a3", "[base]\napps = [\"matmul\"]\n[grid]\nworkload = [\"bfs\"]\n") ==
          f + "a3.toml:2: apps: a point runs a list of applications or a workload, not both (workload at " + f +
              "a3.toml:4)");
    std::ofstream(f + "trace.g") << "kernel-1.traceg\n";
    CHECK(error_of("a4", "[base]\ntrace = \"stacksim-sweep-unit-trace.g\"\n[grid]\napps = [\"bfs\"]\n") ==
          f + "a4.toml:4: apps: a point runs one of a trace, applications or a CUDA program (trace at " + f + "a4.toml:2)");
}

TEST_CASE("sweep file: a cuda axis runs a program with its arguments under stacksim cuda", "[sweep]") {
    // Any executable stands in for a CUDA program here: the plan only names and hashes it.
    const std::string f = "/tmp/stacksim-sweep-unit-";
    {
        std::ofstream(f + "app") << "#!/bin/sh\n";
    }
    ::chmod((f + "app").c_str(), 0755);
    auto plan = SweepPlan::build(SweepFile::read(
        write_sweep("cuda", "[base]\nconfig = \"small\"\n[grid]\ncuda = [[\"stacksim-sweep-unit-app\", \"64\"], "
                            "[\"stacksim-sweep-unit-app\", \"128\"]]\n")));
    REQUIRE(plan.points().size() == 2);
    CHECK(plan.columns() == std::vector<std::string>{"config", "workload", "size", "seed", "cuda"});
    CHECK(plan.points()[0].args == std::vector<std::string>{"cuda", "small"});
    CHECK(plan.points()[0].program == std::vector<std::string>{f + "app", "64"});
    CHECK(plan.points()[1].values == std::vector<std::string>{"small", "", "", "1", "stacksim-sweep-unit-app 128"});
    CHECK(plan.points()[0].hash != plan.points()[1].hash);  // the arguments are part of the identity

    CHECK(error_of("c1", "[grid]\ncuda = [[]]\n") ==
          f + "c1.toml:2: cuda: expected a program and its arguments, [\"./app\", \"ARG\", ...], or the program alone");
    CHECK(error_of("c2", "[base]\ncuda = \"nosuch-program\"\n") ==
          f + "c2.toml:2: cuda: no executable program 'nosuch-program'");
    CHECK(error_of("c3", "[base]\ncuda = \"stacksim-sweep-unit-app\"\n[grid]\napps = [\"bfs\"]\n") ==
          f + "c3.toml:4: apps: a point runs one of a trace, applications or a CUDA program (cuda at " + f +
              "c3.toml:2)");
}
