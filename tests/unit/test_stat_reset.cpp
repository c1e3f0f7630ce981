// SPDX-License-Identifier: Apache-2.0
// The statistics' region of interest: StatRegistry::reset() re-bases dumps, not the modules.
#include <catch2/catch.hpp>

#include "sim/stats.h"

using namespace stacksim;

TEST_CASE("stats reset: counters, averages and histograms report the region after reset()", "[stats]") {
    sim::StatRegistry r;
    sim::StatGroup g(r, "gpu.sm0");
    sim::Counter c;
    sim::Average a;
    sim::Histogram h(10, 4);
    g.add("c", c, "a counter", "events");
    g.add("a", a, "an average", "cycles");
    g.add("h", h, "a histogram", "cycles");
    double formula_base = 0;
    g.add_formula("f", [&] { return static_cast<double>(c.value()) - formula_base; }, "follows the region", "events");
    r.on_reset([&] { formula_base = static_cast<double>(c.value()); });

    // Warm-up.
    c += 5;
    a.sample(100);
    h.sample(35);
    CHECK(r.resets() == 0);
    CHECK(r.value("gpu.sm0.c") == 5);
    CHECK(r.reset() == 1);
    // The module's own values are untouched (a reset never changes what a module does).
    CHECK(c.value() == 5);
    CHECK(a.count() == 1);
    CHECK(r.value("gpu.sm0.c") == 0);
    CHECK(r.value("gpu.sm0.a") == 0);
    CHECK(r.value("gpu.sm0.f") == 0);

    // The region.
    ++c;
    ++c;
    a.sample(2);
    a.sample(4);
    h.sample(5);
    h.sample(15);
    CHECK(r.value("gpu.sm0.c") == 2);
    CHECK(r.value("gpu.sm0.a") == Approx(3.0));
    CHECK(r.value("gpu.sm0.f") == 2);
    const auto j = r.to_json();
    CHECK(j["gpu.sm0.c"]["value"] == 2);
    CHECK(j["gpu.sm0.a"]["value"]["count"] == 2);
    CHECK(j["gpu.sm0.a"]["value"]["mean"] == Approx(3.0));
    CHECK(j["gpu.sm0.h"]["value"]["counts"] == std::vector<uint64_t>{1, 1, 0, 0});
    CHECK(j["gpu.sm0.h"]["value"]["count"] == 2);
    CHECK(j["gpu.sm0.h"]["value"]["mean"] == Approx(10.0));
    CHECK(r.to_csv().find("gpu.sm0.c,2,events") != std::string::npos);

    // A second region starts from zero again.
    CHECK(r.reset() == 2);
    CHECK(r.value("gpu.sm0.c") == 0);
    CHECK(r.to_json()["gpu.sm0.h"]["value"]["counts"] == std::vector<uint64_t>{0, 0, 0, 0});
}

TEST_CASE("stats reset: without a reset the dumps are the whole run's", "[stats]") {
    sim::StatRegistry r;
    sim::Counter c;
    sim::Average a;
    r.add("x.c", c, "", "");
    r.add("x.a", a, "", "");
    c += 7;
    a.sample(0.1);
    a.sample(0.2);
    CHECK(r.value("x.c") == 7);
    CHECK(r.value("x.a") == a.mean());  // bit-identical, not just close
    CHECK(r.to_json()["x.a"]["value"]["min"] == 0.1);
}
