// SPDX-License-Identifier: Apache-2.0
// The progress line's percentage and time left, and that it stays silent when not enabled.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "sim/progress_line.h"

using stacksim::sim::ProgressLine;

TEST_CASE("progress line: percentage and ETA extrapolated from the time so far", "[progress]") {
    CHECK(ProgressLine::eta_text(0.5, 10.0) == "50% ETA 10s");
    CHECK(ProgressLine::eta_text(0.25, 30.0) == "25% ETA 1m30s");
    CHECK(ProgressLine::eta_text(0.1, 800.0) == "10% ETA 2h00m");
    CHECK(ProgressLine::eta_text(0.999, 100.0) == "99% ETA 0s");
    CHECK(ProgressLine::eta_text(0.005, 1.0) == "0%");   // too early to tell
    CHECK(ProgressLine::eta_text(1.7, 5.0) == "100% ETA 0s");  // clamped
}

TEST_CASE("progress line: prints only when enabled, then rewrites one line and erases it", "[progress]") {
    std::FILE* f = std::tmpfile();
    REQUIRE(f);
    ProgressLine off(f, false, 0.0);
    off.update("hidden", 0.5);
    off.clear();
    CHECK(std::ftell(f) == 0);
    ProgressLine on(f, true, 0.0);
    on.update("noc rate 0.1 (1 of 4)", 0.25);
    on.update("too soon", 0.5);  // at most once a second
    on.clear();
    std::rewind(f);
    char buf[512] = {};
    const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    const std::string text(buf, n);
    CHECK(text.find("\r[stacksim] noc rate 0.1 (1 of 4)  25%") == 0);
    CHECK(text.find("too soon") == std::string::npos);
    CHECK(text.back() == '\r');
    std::fclose(f);
}
