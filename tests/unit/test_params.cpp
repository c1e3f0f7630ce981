// SPDX-License-Identifier: Apache-2.0
// Declared parameters: reading, checks, policies with parameters, and the generated docs.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "sim/config.h"
#include "sim/param.h"
#include "sim/registry.h"
#include "top/config_command.h"
#include "top/noc_config.h"
#include "top/run_config.h"

using namespace stacksim;

namespace {

enum class Shape : uint8_t { Round, Square };

struct Knob {
    uint32_t count = 4;
    double ratio = 0.5;
    Shape shape = Shape::Round;
    std::string label = "x";
    static const sim::Params<Knob>& params() {
        static const auto p = [] {
            sim::Params<Knob> p;
            p.add("count", &Knob::count, "things", "how many").range(1, 8);
            p.add("ratio", &Knob::ratio, "", "a fraction").range(0.0, 1.0);
            p.add("shape", &Knob::shape, "", "the shape").names({{"round", Shape::Round}, {"square", Shape::Square}});
            p.add("label", &Knob::label, "", "a label").one_of({"x", "y"});
            return p;
        }();
        return p;
    }
};

std::string read_error(const std::string& toml) {
    auto doc = sim::ConfigDoc::from_string(toml, "k.toml");
    Knob k;
    try {
        Knob::params().read_into(doc.section("knob"), k);
        doc.check_all_used();
    } catch (const sim::ConfigError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("params: values are read into the struct, absent keys keep the member's default", "[params]") {
    auto doc = sim::ConfigDoc::from_string("[knob]\ncount = 7\nshape = \"square\"\n", "k.toml");
    Knob k;
    Knob::params().read_into(doc.section("knob"), k);
    CHECK(k.count == 7);
    CHECK(k.shape == Shape::Square);
    CHECK(k.ratio == 0.5);
    CHECK(k.label == "x");
}

TEST_CASE("params: range, choice, type and finiteness errors name file, line and key", "[params]") {
    CHECK(read_error("[knob]\ncount = 9\n") == "k.toml:2: knob.count: must be 1..8, got 9");
    CHECK(read_error("[knob]\n\nratio = -0.5\n") == "k.toml:3: knob.ratio: must be 0.0..1.0, got -0.5");
    CHECK(read_error("[knob]\nratio = nan\n") == "k.toml:2: knob.ratio: must be a finite number");
    CHECK(read_error("[knob]\nshape = \"oval\"\n") == "k.toml:2: knob.shape: 'oval' is not one of: round, square");
    CHECK(read_error("[knob]\nlabel = \"z\"\n") == "k.toml:2: knob.label: 'z' is not one of: x, y");
    CHECK(read_error("[knob]\ncount = \"four\"\n") == "k.toml:2: knob.count: expected integer, got string");
    CHECK(read_error("[knob]\ncolour = 1\n") == "k.toml:2: unknown key 'knob.colour'");
}

TEST_CASE("params: the effective config holds what was read, in TOML that reads back the same", "[params]") {
    auto doc = sim::ConfigDoc::from_string("[knob]\ncount = 3\n", "k.toml");
    Knob k;
    Knob::params().read_into(doc.section("knob"), k);
    std::ostringstream out;
    out << doc.effective();
    CHECK(out.str().find("shape = 'round'") != std::string::npos);
    auto again = sim::ConfigDoc::from_string(out.str(), "effective.toml");
    Knob k2;
    Knob::params().read_into(again.section("knob"), k2);
    CHECK(k2.count == 3);
}

TEST_CASE("params: a chosen policy's parameters come from its own table", "[params]") {
    auto doc = sim::ConfigDoc::from_string("[gpu.sm]\nwarp_scheduler = \"ccws\"\n[gpu.sm.ccws]\ncutoff = 512\n", "t.toml");
    top::RunConfig c = top::read_run_config(doc);
    CHECK(c.sm_policies.warp_scheduler.name == "ccws");
    REQUIRE(c.sm_policies.warp_scheduler.params);
    std::ostringstream out;
    out << doc.effective();
    CHECK(out.str().find("cutoff = 512") != std::string::npos);
    auto bad = sim::ConfigDoc::from_string("[gpu.sm]\nwarp_scheduler = \"ccws\"\n[gpu.sm.ccws]\ncutof = 512\n", "t.toml");
    CHECK_THROWS_WITH(top::read_run_config(bad), "t.toml:4: unknown key 'gpu.sm.ccws.cutof'");
}

TEST_CASE("params: docs/config.md is what the code generates", "[params][docs]") {
    std::ifstream in(STACKSIM_SOURCE_DIR "/docs/config.md");
    std::stringstream text;
    text << in.rdbuf();
    // Regenerate with: build/stacksim config --markdown > docs/config.md
    CHECK(text.str() == top::config_markdown());
}

TEST_CASE("params: every key of every section has a description, and docs are generated for each", "[params][docs]") {
    auto all = top::run_config_docs();
    auto noc = top::noc_config_docs();
    all.insert(all.end(), noc.begin(), noc.end());
    size_t keys = 0;
    for (const auto& s : all)
        for (const auto& p : s.params) {
            INFO("[" << s.path << "] " << p.key);
            CHECK_FALSE(p.description.empty());
            CHECK_FALSE(p.default_value.empty());
            ++keys;
        }
    CHECK(keys > 200);
}

TEST_CASE("params: the fixed DRAM preset's keys are validated like every other preset's", "[params]") {
    auto doc = sim::ConfigDoc::from_string("[memory]\nmodel = \"hierarchy\"\n[memory.dram]\npreset = \"fixed\"\n"
                                           "read_queue_depth = 0\n",
                                           "t.toml");
    CHECK_THROWS_WITH(top::read_run_config(doc), "t.toml:5: memory.dram.read_queue_depth: must be 1..65536, got 0");
}

TEST_CASE("params: [memory.noc] takes the [noc] router keys, allocator iterations and placement included", "[params]") {
    auto doc = sim::ConfigDoc::from_string("[memory]\nmodel = \"hierarchy\"\ninterconnect = \"mesh\"\n[memory.noc]\n"
                                           "allocator_iterations = 2\nmemory_placement = \"north_south\"\nvcs = 6\n",
                                           "t.toml");
    const top::RunConfig c = top::read_run_config(doc);
    CHECK(c.noc_network.allocator_iterations == 2);
    CHECK(c.noc_network.memory_placement == "north_south");
    CHECK(c.noc_network.vcs == 6);
    CHECK(c.noc_network.memory_controllers == c.address_map.partitions);
    auto bad = sim::ConfigDoc::from_string("[memory.noc]\ntopology = \"stacked\"\n", "t.toml");
    CHECK_THROWS_WITH(top::read_run_config(bad), "t.toml:2: unknown key 'memory.noc.topology'");
}

TEST_CASE("params: the DRAM model is chosen by a key, and the old preset = \"fixed\" still chooses it", "[params]") {
    const std::string hierarchy = "[memory]\nmodel = \"hierarchy\"\nbandwidth_gbps = 64.0\n[memory.dram]\n";
    auto old = sim::ConfigDoc::from_string(hierarchy + "preset = \"fixed\"\n", "old.toml");
    const top::RunConfig a = top::read_run_config(old);
    CHECK(a.dram.model == "fixed");
    CHECK(a.memory_peak_gbps() == 64.0);
    auto now = sim::ConfigDoc::from_string(hierarchy + "preset = \"hbm2\"\nmodel = \"fixed\"\n", "new.toml");
    const top::RunConfig b = top::read_run_config(now);
    CHECK(b.dram.model == "fixed");
    CHECK(b.memory_peak_gbps() == 64.0);
    auto timed = sim::ConfigDoc::from_string(hierarchy + "preset = \"hbm2\"\n", "timed.toml");
    const top::RunConfig c = top::read_run_config(timed);
    CHECK(c.dram.model == "timed");
    CHECK(c.memory_peak_gbps() == Approx(c.dram.peak_bandwidth_gbps() * c.address_map.partitions));
    auto bad = sim::ConfigDoc::from_string(hierarchy + "model = \"ideal\"\n", "bad.toml");
    CHECK_THROWS_WITH(top::read_run_config(bad), Catch::Contains("bad.toml:5") && Catch::Contains("memory.dram.model"));
}
