// SPDX-License-Identifier: Apache-2.0
// Tests of the stats dictionary: complete descriptions and units, patterns, and docs/stats.md.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "top/stats_dictionary.h"

using namespace stacksim::top;

namespace {
const StatPattern* find(const std::string& pattern) {
    for (const auto& p : stats_dictionary())
        if (p.pattern == pattern) return &p;
    return nullptr;
}
}  // namespace

TEST_CASE("stats: every statistic of every representative system has a description and a unit", "[stats][docs]") {
    REQUIRE(stats_dictionary().size() > 100);
    for (const auto& p : stats_dictionary()) {
        INFO(p.pattern);
        CHECK_FALSE(p.description.empty());
        CHECK_FALSE(p.unit.empty());
        CHECK((p.kind == "counter" || p.kind == "average" || p.kind == "histogram" || p.kind == "formula"));
    }
}

TEST_CASE("stats: per-instance names collapse to patterns, names that only contain digits do not", "[stats]") {
    CHECK(find("gpu.smN.warp_instructions"));
    CHECK(find("gpu.mem.l2_N.hit_rate"));
    CHECK(find("gpu.mem.dram_N.bankN.activates"));
    CHECK(find("gpu.pcie.h2d.bytes"));    // "h2d" is a name, not an instance
    CHECK_FALSE(find("gpu.sm0.warp_instructions"));
    CHECK(stat_is_known("gpu.sm15.warp_instructions"));
    CHECK(stat_is_known("gpu.mem.dram_3.bank12.activates"));
    CHECK_FALSE(stat_is_known("gpu.smN.warp_instructions"));
    CHECK_FALSE(stat_is_known("gpu.sm0.warp_instruction"));
    // Statistics of optional parts name the systems that have them.
    REQUIRE(find("gpu.smN_tlb.misses"));
    CHECK(find("gpu.smN_tlb.misses")->systems == std::vector<std::string>{"uvm", "compressed"});
    REQUIRE(find("gpu.gmmu.compression.ratio"));
    CHECK(find("gpu.gmmu.compression.ratio")->systems == std::vector<std::string>{"compressed"});
    REQUIRE(find("gpu.mem.memory.reads"));
    CHECK(find("gpu.mem.memory.reads")->systems == std::vector<std::string>{"simple"});
    CHECK(find("gpu.cycles")->systems.empty());
}

TEST_CASE("stats: docs/stats.md is what the code generates", "[stats][docs]") {
    std::ifstream in(STACKSIM_SOURCE_DIR "/docs/stats.md");
    std::stringstream text;
    text << in.rdbuf();
    // Regenerate with: build/stacksim stats --markdown > docs/stats.md
    CHECK(text.str() == stats_markdown());
}
