// SPDX-License-Identifier: Apache-2.0
// Tests of `stacksim plot`: the three kinds of figure from real outputs, as valid PNG and SVG files.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "tests/system/cli_runner.h"

using namespace stacksim::test;

namespace {

/// Without Python 3 + matplotlib the test reports itself skipped (ctest: SKIP_RETURN_CODE 77).
void require_matplotlib() {
    CliResult r = run_cli("plot --help");
    if (r.output.find("no Python 3 with matplotlib") == std::string::npos) return;
    std::printf("SKIPPED: %s", r.output.c_str());
    std::fflush(stdout);
    std::exit(77);
}

uint32_t big_endian(const std::string& s, size_t at) {
    uint32_t v = 0;
    for (size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(s[at + i]);
    return v;
}

/// A PNG with the signature, an IHDR of non-zero size first and IEND last; and its SVG twin.
void check_figure(const std::string& stem) {
    INFO(stem);
    const std::string png = read_file(stem + ".png");
    REQUIRE(png.size() > 1000);
    CHECK(png.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
    CHECK(png.compare(12, 4, "IHDR") == 0);
    CHECK(big_endian(png, 16) > 100);  // width
    CHECK(big_endian(png, 20) > 100);  // height
    CHECK(png.compare(png.size() - 8, 4, "IEND") == 0);
    const std::string svg = read_file(stem + ".svg");
    CHECK(svg.find("<svg") != std::string::npos);
    CHECK(svg.find("</svg>") != std::string::npos);
}

}  // namespace

TEST_CASE("plot: latency curves, grouped bars and timeline series become PNG and SVG files", "[plot][system]") {
    require_matplotlib();
    const std::string d = temp_dir();
    const std::string quick = " --rates 0.05:0.35:0.1 --set traffic.warmup=200 --set traffic.measure=600";
    REQUIRE(run_cli("noc" + quick + " --out " + d + "/xy").exit_code == 0);
    REQUIRE(run_cli("noc" + quick + " --set noc.routing=yx --out " + d + "/yx").exit_code == 0);
    write_file(d + "/s.toml", "[base]\nconfig = \"small\"\n[grid]\nworkload = [\"vecadd:4096\", \"matmul:32\"]\n"
                              "\"gpu.sm.warp_scheduler\" = [\"lrr\", \"gto\"]\nseed = [1, 2]\n");
    REQUIRE(run_cli("sweep " + d + "/s.toml --jobs 2").exit_code == 0);
    REQUIRE(run_cli("run small --workload matmul:32 --quiet --timeline " + d + "/t.json --timeline-sms 0,1").exit_code == 0);

    CliResult lat = run_cli("plot latency " + d + "/xy/curve.csv " + d + "/yx/curve.csv=YX-Z --out " + d + "/fig/latency");
    INFO(lat.output);
    CHECK(lat.exit_code == 0);
    check_figure(d + "/fig/latency");
    CliResult bars = run_cli("plot bars " + d + "/s/results.csv --stat cycles --x workload --group gpu.sm.warp_scheduler "
                             "--baseline lrr --speedup --out " + d + "/fig/bars");
    INFO(bars.output);
    CHECK(bars.exit_code == 0);
    check_figure(d + "/fig/bars");
    for (const char* series : {"ipc", "ctas", "stalls"}) {
        CliResult tl = run_cli("plot timeline " + d + "/t.json --series " + series + " --out " + d + "/fig/" + series);
        INFO(tl.output);
        CHECK(tl.exit_code == 0);
        check_figure(d + "/fig/" + series);
    }
}

TEST_CASE("plot: a missing column or file is a one-line error with exit 2", "[plot][errors]") {
    require_matplotlib();
    const std::string d = temp_dir();
    write_file(d + "/r.csv", "point,status,workload,cycles\n0,done,vecadd,100\n");
    CliResult r = run_cli("plot bars " + d + "/r.csv --stat ipc --out " + d + "/x");
    CHECK(r.exit_code == 2);
    CHECK(r.output.find("r.csv: no column 'ipc'") != std::string::npos);
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
    CliResult m = run_cli("plot timeline " + d + "/missing.json");
    CHECK(m.exit_code == 2);
    CHECK_FALSE(std::filesystem::exists(d + "/x.png"));
}
