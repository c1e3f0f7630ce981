// SPDX-License-Identifier: Apache-2.0
// Configuration reading: types, unknown keys, overrides, validation, effective config.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

#include "sim/config.h"
#include "top/embedded_presets.h"
#include "top/run_config.h"

using namespace stacksim;

namespace {
std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const sim::ConfigError& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST_CASE("config: values are read into the module structs", "[config]") {
    auto doc = sim::ConfigDoc::from_string("[gpu]\nnum_sms = 3\n[gpu.sm]\nwarp_scheduler = \"gto\"\n", "t.toml");
    top::RunConfig c = top::read_run_config(doc);
    CHECK(c.gpu.num_sms == 3);
    CHECK(c.sm_policies.warp_scheduler.name == "gto");
    CHECK(c.sm.max_ctas == core::SmConfig{}.max_ctas);
}

TEST_CASE("config: a misspelled key names file, line and key", "[config]") {
    auto doc = sim::ConfigDoc::from_string("[gpu]\nnum_sms = 3\n\n[gpu.sm]\nmax_warps = 4\n", "t.toml");
    CHECK(error_of([&] { top::read_run_config(doc); }) == "t.toml:5: unknown key 'gpu.sm.max_warps'");
}

TEST_CASE("config: a wrong type names file, line and key", "[config]") {
    auto doc = sim::ConfigDoc::from_string("[gpu]\nnum_sms = \"many\"\n", "t.toml");
    CHECK(error_of([&] { top::read_run_config(doc); }) ==
          "t.toml:2: gpu.num_sms: expected integer, got string");
}

TEST_CASE("config: --set overrides are type-checked and named", "[config]") {
    auto doc = sim::ConfigDoc::from_string("", "t.toml");
    doc.apply_override("gpu.num_sms=abc");
    CHECK(error_of([&] { top::read_run_config(doc); }) ==
          "--set gpu.num_sms=abc: gpu.num_sms: expected integer, got string");
    auto doc2 = sim::ConfigDoc::from_string("", "t.toml");
    doc2.apply_override("gpu.num_sms=7");
    CHECK(top::read_run_config(doc2).gpu.num_sms == 7);
    auto doc3 = sim::ConfigDoc::from_string("", "t.toml");
    doc3.apply_override("gpu.nums_sms=7");
    CHECK(error_of([&] { top::read_run_config(doc3); }) == "--set gpu.nums_sms=7: unknown key 'gpu.nums_sms'");
    CHECK_THROWS_AS(doc3.apply_override("novalue"), sim::ConfigError);
}

TEST_CASE("config: validation errors and choices name the key", "[config]") {
    auto doc = sim::ConfigDoc::from_string("[gpu.sm]\nschedulers = 0\n", "t.toml");
    CHECK(error_of([&] { top::read_run_config(doc); }) == "t.toml:2: gpu.sm.schedulers: must be 1..64, got 0");
    auto doc2 = sim::ConfigDoc::from_string("[gpu.sm]\nwarp_scheduler = \"fifo\"\n", "t.toml");
    CHECK(error_of([&] { top::read_run_config(doc2); }).rfind("t.toml:2: gpu.sm.warp_scheduler: 'fifo' is not one of", 0) == 0);
    auto doc3 = sim::ConfigDoc::from_string("[gpu]\nnum_sms = -2\n", "t.toml");
    CHECK(error_of([&] { top::read_run_config(doc3); }) == "t.toml:2: gpu.num_sms: must not be negative, got -2");
}

TEST_CASE("config: syntax errors name the line", "[config]") {
    CHECK(error_of([] { sim::ConfigDoc::from_string("[gpu]\nnum_sms = = 3\n", "bad.toml"); }).rfind("bad.toml:2:", 0) == 0);
}

TEST_CASE("config: the effective config holds every value, given or default", "[config]") {
    auto doc = sim::ConfigDoc::from_string("[gpu]\nnum_sms = 5\n", "t.toml");
    top::read_run_config(doc);
    std::ostringstream out;
    out << doc.effective();
    auto again = sim::ConfigDoc::from_string(out.str(), "effective.toml");
    top::RunConfig c = top::read_run_config(again);
    CHECK(c.gpu.num_sms == 5);
    CHECK(out.str().find("shared_memory_latency") != std::string::npos);
}

TEST_CASE("config: every preset reads cleanly", "[config]") {
    std::vector<std::string> names;
    for (const auto& f : top::embedded_presets()) names.emplace_back(f.file_name.substr(0, f.file_name.size() - 5));
    for (const char* name : {"gtx980", "gtx480", "small", "h100", "h100-pcie"})
        CHECK(std::find(names.begin(), names.end(), name) != names.end());
    for (const auto& name : names) {
        INFO(name);
        auto doc = top::load_config(name);
        CHECK_NOTHROW(top::read_run_config(doc));
    }
    CHECK_THROWS_AS(top::load_config("no-such-preset"), sim::InputError);
}

TEST_CASE("config: the h100 presets add up to their datasheets' totals", "[config]") {
    // H100 SXM5: 132 SMs, 50 MB L2, 3.35 TB/s HBM3; H100 PCIe: 114 SMs, 50 MB L2, 2.0 TB/s HBM2e
    struct Want {
        const char* preset;
        unsigned sms;
        double tbps;
    };
    for (const Want& w : {Want{"h100", 132, 3.35}, Want{"h100-pcie", 114, 2.04}}) {
        INFO(w.preset);
        auto doc = top::load_config(w.preset);
        const top::RunConfig c = top::read_run_config(doc);
        CHECK(c.gpu.num_sms == w.sms);
        CHECK(double(c.address_map.partitions) * double(c.l2.size_bytes) == 50.0 * 1024 * 1024);
        CHECK(c.memory_peak_gbps() == Approx(w.tbps * 1000).epsilon(0.01));
        CHECK(c.sm.max_threads == 2048);
        CHECK(c.sm.shared_memory_bytes == 228 * 1024);
    }
}
