// SPDX-License-Identifier: Apache-2.0
// `stacksim plot` on hostile input (issue 24) and its explicit aggregation, samples and windows (issue 32).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "tests/system/cli_runner.h"

using namespace stacksim::test;
namespace fs = std::filesystem;

namespace {

/// Without Python 3 + matplotlib the test reports itself skipped (ctest: SKIP_RETURN_CODE 77).
void require_matplotlib() {
    CliResult r = run_cli("plot --help");
    if (r.output.find("no Python 3 with matplotlib") == std::string::npos) return;
    std::printf("SKIPPED: %s", r.output.c_str());
    std::fflush(stdout);
    std::exit(77);
}

/// `stacksim plot ARGS` is refused: exit 2, one line (no traceback) containing `text`.
void refused(const std::string& args, const std::string& text) {
    CliResult r = run_cli("plot " + args);
    INFO(args.substr(0, 200) << "\n" << r.output.substr(0, 2000));
    CHECK(r.exit_code == 2);
    CHECK(r.output.find(text) != std::string::npos);
    CHECK(r.output.find("Traceback") == std::string::npos);
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}

const std::string kEvent = R"({"name":"k","cat":"kernel","ph":"X","ts":0,"dur":10,"pid":0,"tid":0})";

}  // namespace

TEST_CASE("plot: malformed timelines and tables are one line, exit 2", "[plot][errors]") {
    require_matplotlib();
    const std::string d = temp_dir();
    auto timeline = [&](const std::string& name, const std::string& events) {
        write_file(d + "/" + name, "{\"traceEvents\":[" + events + "]}");
        return d + "/" + name + " --out " + d + "/fig";
    };
    refused("timeline " + timeline("null.json", R"({"name":"k","cat":"cta","ph":"X","ts":0,"dur":null,"pid":1,"tid":0})"),
            "traceEvents[0].dur is null, not a number");
    refused("timeline " + timeline("num.json", "1,2"), "traceEvents[0] is an integer, not an event object");
    refused("timeline " + timeline("nan.json", R"({"name":"k","cat":"cta","ph":"X","ts":NaN,"dur":1,"pid":1,"tid":0})"),
            "NaN is not a number JSON allows");
    refused("timeline " + timeline("inf.json", R"({"name":"k","cat":"cta","ph":"X","ts":1e999,"dur":1,"pid":1,"tid":0})"),
            "not a finite number");
    // One event at cycle 3e8 with --bin 1 would be 3e8 bins: refused before any is allocated.
    refused("timeline " + timeline("far.json", R"({"name":"k","cat":"cta","ph":"X","ts":300000000,"dur":1,"pid":1,"tid":0})") +
                " --series ctas --bin 1",
            "at most 100000");
    write_file(d + "/ff.csv", "cycle,ipc\n\xff,1\n");
    refused("samples " + d + "/ff.csv", "is not UTF-8");
    write_file(d + "/big.csv", "cycle,ipc\n1," + std::string(200000, 'x') + "\n");
    refused("samples " + d + "/big.csv", "cells hold at most 4096 characters");
    write_file(d + "/c.csv", "offered,packet_latency\n0.1,10\n");
    refused("latency " + d + "/c.csv --ymax x", "argument --ymax: invalid float value: 'x'");
    refused("latency " + d + "/c.csv --ymax nan", "--ymax nan: expected a finite number");
    refused("timeline " + timeline("ok.json", kEvent) + " --from 50 --to 20", "--from 50 is not before --to 20");
    CHECK_FALSE(fs::exists(d + "/fig.png"));
}

TEST_CASE("plot bars: an axis not named is an error unless fixed, faceted or averaged on purpose", "[plot]") {
    require_matplotlib();
    const std::string d = temp_dir();
    // Two presets x two schedulers x two seeds; plan.json says which columns are axes.
    std::string csv = "point,hash,status,config,workload,size,seed,gpu.sm.warp_scheduler,cycles,ipc\n";
    int n = 0;
    for (const char* config : {"small", "gtx980"})
        for (const char* sched : {"lrr", "gto"})
            for (int seed : {1, 2}) {
                csv += std::to_string(n) + ",h,done," + config + ",vecadd,64," + std::to_string(seed) + "," + sched +
                       "," + std::to_string(107 + n * 7) + ",1.5\n";
                ++n;
            }
    write_file(d + "/results.csv", csv);
    write_file(d + "/plan.json", R"({"columns": ["config", "workload", "size", "seed", "gpu.sm.warp_scheduler"]})");
    const std::string bars = "bars " + d + "/results.csv --stat cycles --group gpu.sm.warp_scheduler --out " + d;
    refused(bars + "/a", "differ in 'config' (small, gtx980): name it in --x or --group, fix it with --where config=VALUE");
    for (const char* ok : {" --where config=small", " --facet config", " --aggregate mean"}) {
        CliResult r = run_cli("plot " + bars + "/b" + ok);
        INFO(ok << "\n" << r.output);
        CHECK(r.exit_code == 0);
    }
    refused(bars + "/c --where config=nosuch", "--where config=nosuch matches no row (values: gtx980, small)");
    refused(bars + "/c --aggregate max", "invalid choice: 'max'");
    // Seeds alone may differ within a bar: their range is drawn and labelled.
    CliResult seeds = run_cli("plot " + bars + "/s --where config=small");
    CHECK(seeds.exit_code == 0);
    CHECK(read_file(d + "/s.svg").find("error bars: min-max over 2 seeds") != std::string::npos);
}

TEST_CASE("plot samples and timeline windows draw the --samples CSV and a part of a timeline", "[plot]") {
    require_matplotlib();
    const std::string d = temp_dir();
    REQUIRE(run_cli("run small --workload matmul:32 --quiet --samples " + d + "/s.csv --timeline " + d +
                    "/t.json --sample-every 200")
                .exit_code == 0);
    CliResult s = run_cli("plot samples " + d + "/s.csv --series ipc,l1_hit_rate --out " + d + "/samples");
    INFO(s.output);
    CHECK(s.exit_code == 0);
    CHECK(fs::file_size(d + "/samples.png") > 1000);
    refused("samples " + d + "/s.csv --series nosuch", "no series 'nosuch'");
    // The kernel starts after the copies: a window of its first 2000 cycles.
    const std::string timeline = read_file(d + "/t.json");
    const std::string key = "\"cat\":\"kernel\",\"ph\":\"X\",\"ts\":";
    const auto k = timeline.find(key);
    REQUIRE(k != std::string::npos);
    const uint64_t start = std::stoull(timeline.substr(k + key.size()));
    CliResult t = run_cli("plot timeline " + d + "/t.json --from " + std::to_string(start) + " --to " +
                          std::to_string(start + 2000) + " --bin 10 --out " + d + "/win");
    INFO(t.output);
    CHECK(t.exit_code == 0);
    CHECK(fs::exists(d + "/win.svg"));
}
