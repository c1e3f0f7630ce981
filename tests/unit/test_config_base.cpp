// SPDX-License-Identifier: Apache-2.0
// Config files that stand on a preset or another file (`base = "gtx980"`): merging, chains, errors.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/config.h"
#include "sim/error.h"
#include "top/run_config.h"

using namespace stacksim;
namespace fs = std::filesystem;

namespace {

/// This process's scratch folder (each test case runs in its own process).
std::string scratch(const std::string& name, const std::string& text) {
    const fs::path dir = fs::temp_directory_path() / ("stacksim_base_test_" + std::to_string(::getpid()));
    const fs::path p = dir / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
}

std::string effective_text(sim::ConfigDoc& doc) {
    top::read_run_config(doc);
    std::ostringstream out;
    out << doc.effective();
    return out.str();
}

std::string input_error(const std::string& path) {
    try {
        auto doc = top::load_config(path);
        top::read_run_config(doc);
    } catch (const sim::InputError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("config base: a file on a preset is the preset with the file's keys changed", "[config][base]") {
    auto doc = top::load_config(scratch("mine.toml", "base = \"gtx980\"\n[gpu]\nnum_sms = 4\n"));
    auto preset = top::load_config("gtx980");
    preset.apply_override("gpu.num_sms=4");
    CHECK(effective_text(doc) == effective_text(preset));
    const top::RunConfig c = top::read_run_config(doc);
    CHECK(c.gpu.num_sms == 4);
    CHECK(c.mem.model == top::MemoryModel::Hierarchy);  // from gtx980, not the built-in default
    REQUIRE(doc.bases().size() == 1);
    CHECK(doc.bases()[0] == "preset gtx980.toml");
    CHECK(doc.effective().get("base") == nullptr);  // the effective config stands alone
}

TEST_CASE("config base: tables merge key by key and chains stack, nearest file winning", "[config][base]") {
    scratch("chain/middle.toml", "base = \"gtx480\"\n[memory.l2]\nhit_latency = 77\n[gpu]\nnum_sms = 6\n");
    auto doc = top::load_config(scratch("chain/top.toml", "base = \"middle.toml\"\n[gpu]\nnum_sms = 2\n"));
    const top::RunConfig c = top::read_run_config(doc);
    CHECK(c.gpu.num_sms == 2);              // top.toml
    CHECK(c.l2.hit_latency == 77);          // middle.toml (a relative base is taken from the file's folder)
    CHECK(c.l2.size_bytes == 131072);       // gtx480, same table as middle.toml's key
    CHECK(c.address_map.partitions == 12);  // gtx480
    REQUIRE(doc.bases().size() == 2);
    CHECK(doc.bases()[0].find("middle.toml") != std::string::npos);
    CHECK(doc.bases()[1] == "preset gtx480.toml");
}

TEST_CASE("config base: an error in an inherited key names the base file and its line", "[config][base]") {
    const std::string base = scratch("b/base.toml", "base = \"small\"\n[gpu]\nnum_sms = 2\n\n[gpu.sm]\nmax_wraps = 4\n");
    const std::string top = scratch("b/top.toml", "base = \"base.toml\"\n[gpu]\nnum_sms = 3\n");
    auto doc = top::load_config(top);
    try {
        top::read_run_config(doc);
        FAIL("no error");
    } catch (const sim::ConfigError& e) {
        CHECK(std::string(e.what()) == base + ":6: unknown key 'gpu.sm.max_wraps'");
    }
    const std::string typed = scratch("b/typed.toml", "base = \"small\"\n\n[gpu]\nnum_sms = \"two\"\n");
    auto doc2 = top::load_config(scratch("b/top2.toml", "base = \"typed.toml\"\n"));
    try {
        top::read_run_config(doc2);
        FAIL("no error");
    } catch (const sim::ConfigError& e) {
        CHECK(std::string(e.what()) == typed + ":4: gpu.num_sms: expected integer, got string");
    }
}

TEST_CASE("config base: cycles, unknown bases and a base that is not a string are errors naming file and line",
          "[config][base]") {
    const std::string one = scratch("c/one.toml", "base = \"two.toml\"\n");
    const std::string two = scratch("c/two.toml", "# comment\nbase = \"one.toml\"\n");
    const std::string cycle = input_error(one);
    CHECK(cycle.rfind(two + ":2: base: 'one.toml' makes a cycle", 0) == 0);
    const std::string self = scratch("c/self.toml", "base = \"self.toml\"\n");
    CHECK(input_error(self).find("makes a cycle") != std::string::npos);

    const std::string missing = scratch("c/missing.toml", "[gpu]\nnum_sms = 2\n\nbase = \"gtx98\"\n");
    // `base` after a table header belongs to that table: an unknown key, not a base.
    auto doc = top::load_config(missing);
    CHECK_THROWS_AS(top::read_run_config(doc), sim::ConfigError);
    const std::string missing2 = scratch("c/missing2.toml", "\nbase = \"gtx98\"\n");
    const std::string m = input_error(missing2);
    CHECK(m.rfind(missing2 + ":2: base: 'gtx98' is neither a preset nor a file", 0) == 0);
    CHECK(m.find("gtx980") != std::string::npos);  // lists the presets

    const std::string typed = scratch("c/typed.toml", "base = 980\n");
    try {
        top::load_config(typed);
        FAIL("no error");
    } catch (const sim::ConfigError& e) {
        CHECK(std::string(e.what()) == typed + ":1: base: expected the name of a preset or a TOML file, got integer");
    }
}
