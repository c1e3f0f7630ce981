// SPDX-License-Identifier: Apache-2.0
// The workload registry: entries, sizes, and the workload's parameters as a config section.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "sim/config.h"
#include "sim/error.h"
#include "top/run_config.h"
#include "workloads/workload_registry.h"

using namespace stacksim;
using workloads::workload_registry;

namespace {

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const sim::InputError& e) {
        return e.what();
    }
    return "";
}

/// The run configuration of the TOML `text` (named "t.toml" in errors).
top::RunConfig read(const std::string& text) {
    auto doc = sim::ConfigDoc::from_string(text, "t.toml");
    return top::read_run_config(doc);
}

/// Records the launches of a workload's host program; memory reads back as zeros.
class LaunchLog final : public workloads::HostApi {
public:
    struct Launch {
        std::string entry;
        workloads::Dim3 grid, block;
        std::vector<workloads::LaunchArgs::Arg> args;
    };
    std::vector<Launch> launches;

    workloads::DevPtr malloc(uint64_t bytes) override {
        const workloads::DevPtr p = m_next;
        m_next += bytes + 256;
        return p;
    }
    void free(workloads::DevPtr) override {}
    void memcpy_h2d(workloads::DevPtr, const void*, uint64_t) override {}
    void memcpy_d2h(void* dst, workloads::DevPtr, uint64_t bytes) override { std::memset(dst, 0, bytes); }
    void memset(workloads::DevPtr, uint8_t, uint64_t) override {}
    void launch(const std::string&, const std::string& entry, workloads::Dim3 grid, workloads::Dim3 block,
                const workloads::LaunchArgs& args, uint32_t) override {
        launches.push_back({entry, grid, block, args.args()});
    }
    void launch_ptx_source(const std::string&, const std::string&, const std::string& entry, workloads::Dim3 grid,
                           workloads::Dim3 block, const workloads::LaunchArgs& args, uint32_t) override {
        launches.push_back({entry, grid, block, args.args()});
    }
    void launch_trace(const core::TraceKernel&) override {}

private:
    workloads::DevPtr m_next = 0x100000;
};

/// The launches of `spec` at `size` (0: its default size).
std::vector<LaunchLog::Launch> launches_of(const sim::PolicySpec& spec, uint32_t size) {
    LaunchLog host;
    workloads::create_workload(spec, size, 1)->run(host);
    return host.launches;
}

}  // namespace

TEST_CASE("workload registry: every workload is registered once, sorted, with complete info", "[workloads]") {
    const auto& reg = workload_registry();
    CHECK(reg.kind() == "workload");
    const std::vector<std::string> names = reg.names();
    REQUIRE(names.size() >= 31);
    CHECK(std::is_sorted(names.begin(), names.end()));
    CHECK(std::set<std::string>(names.begin(), names.end()).size() == names.size());
    std::vector<std::string> listed;
    for (const auto& w : workloads::workload_library()) listed.push_back(w.name);
    CHECK(listed == names);
    for (const auto& w : workloads::workload_library()) {
        INFO(w.name);
        CHECK(reg.find(w.name) == &w);
        CHECK(reg.description(w.name) == w.description);
        CHECK_FALSE(w.size.meaning.empty());
        CHECK(w.size.multiple_of >= 1);
        CHECK_NOTHROW(reg.check_size(w.name, w.size.default_size));
        CHECK_NOTHROW(reg.check_size(w.name, w.size.max - w.size.max % w.size.multiple_of));
        CHECK(reg.default_size(w.name) == w.size.default_size);
        // Parameter tables: the synthetic generators, pchase's stride, the Polybench inputs.
        const std::set<std::string> with_params{"synthetic", "pchase", "atax",  "bicg",   "mvt",
                                                "gesummv",   "corr",   "covar", "3dconv", "fdtd2d"};
        CHECK(reg.has_params(w.name) == (with_params.count(w.name) == 1));
    }
    CHECK_THROWS_AS(reg.info("nosuch"), sim::InputError);
    CHECK(error_of([&] { reg.info("nosuch"); }).find("vecadd") != std::string::npos);
}

TEST_CASE("workload registry: sizes outside a workload's range are input errors naming it", "[workloads]") {
    const auto& reg = workload_registry();
    for (const auto& w : workloads::workload_library()) {
        INFO(w.name);
        CHECK(error_of([&] { reg.create(w.name, {0, 1}); }).rfind(w.name + ": size 0 out of range", 0) == 0);
        CHECK_THROWS_AS(reg.create(w.name, {w.size.max + 1, 1}), sim::InputError);
    }
    CHECK(error_of([&] { reg.create("lud", {40, 1}); }) == "lud: size 40 is not a multiple of 16");
    // Size 0 through create_workload is the default size.
    CHECK(launches_of("vecadd", 0).at(0).grid.x == 4096 / 256);
    CHECK(launches_of("vecadd", 512).at(0).grid.x == 2);
}

TEST_CASE("workload config: run.workload chooses, its table holds the parameters", "[workloads][config]") {
    top::RunConfig c = read("[run]\nworkload = \"synthetic\"\n[synthetic]\ngrid = 3\nblock = 64\npattern = \"reuse\"\n");
    CHECK(c.run.workload.name == "synthetic");
    REQUIRE(c.run.workload.params != nullptr);
    // The default size of synthetic is the grid of its section: grid x block threads.
    CHECK(workload_registry().default_size(c.run.workload) == 192);
    auto l = launches_of(c.run.workload, 0);
    REQUIRE(l.size() == 2);  // reuse: two launches
    CHECK(l[0].grid.x == 3);
    CHECK(l[0].block.x == 64);
    CHECK(launches_of(c.run.workload, 1000).at(0).grid.x == 16);  // an explicit size overrides the grid

    // pchase: the first launch walks the whole chain, size / stride_bytes steps.
    auto steps = [](const sim::PolicySpec& spec) {
        return static_cast<int32_t>(launches_of(spec, 64).at(0).args.back().bits);
    };
    CHECK(steps(read("[run]\nworkload = \"pchase\"\n").run.workload) == 64 * 1024 / 128);
    CHECK(steps(read("[run]\nworkload = \"pchase\"\n[pchase]\nstride_bytes = 4096\n").run.workload) == 16);
    CHECK(read("").run.workload.name == "vecadd");
    CHECK(read("").run.workload.params == nullptr);
}

TEST_CASE("workload config: the table of a workload that is not chosen is checked, then ignored", "[workloads][config]") {
    CHECK_NOTHROW(read("[pchase]\nstride_bytes = 64\n"));
    CHECK(error_of([] { read("[pchase]\nstride_bytes = 6\n"); }) ==
          "t.toml:2: pchase.stride_bytes: must be a multiple of 4, got 6");
    auto doc = sim::ConfigDoc::from_string("[synthetic]\nblock = 64\n", "t.toml");
    doc.apply_override("run.workload=\"vecadd\"");  // what --workload vecadd does
    const top::RunConfig c = top::read_run_config(doc);
    CHECK(c.run.workload.name == "vecadd");
    CHECK_NOTHROW(read("[run]\nworkload = \"pchase\"\n[pchase]\nstride_bytes = 64\n"));
}

TEST_CASE("workload config: range errors name file, line and key", "[workloads][config]") {
    const std::string pchase = "[run]\nworkload = \"pchase\"\n[pchase]\n";
    CHECK(error_of([&] { read(pchase + "stride_bytes = 6\n"); }) ==
          "t.toml:4: pchase.stride_bytes: must be a multiple of 4, got 6");
    CHECK(error_of([&] { read(pchase + "stride_bytes = 0\n"); }) == "t.toml:4: pchase.stride_bytes: must be >= 4, got 0");
    CHECK(error_of([&] { read(pchase + "stride = 8\n"); }) == "t.toml:4: unknown key 'pchase.stride'");
    const std::string synthetic = "[run]\nworkload = \"synthetic\"\n[synthetic]\n";
    CHECK(error_of([&] { read(synthetic + "block = 2000\n"); }) == "t.toml:4: synthetic.block: must be 1..1024, got 2000");
    CHECK(error_of([&] { read(synthetic + "footprint_bytes = 1000\n"); }) ==
          "t.toml:4: synthetic.footprint_bytes: must be a power of two, got 1000");
    CHECK(error_of([&] { read(synthetic + "pattern = \"zigzag\"\n"); })
              .rfind("t.toml:4: synthetic.pattern: 'zigzag' is not one of", 0) == 0);
    CHECK(error_of([&] { read(synthetic + "\nalu_fraction = 0.7\n"); })
              .rfind("t.toml:5: synthetic.alu_fraction: alu_fraction + sfu_fraction", 0) == 0);
    CHECK(error_of([] { read("[run]\nworkload = \"vecsub\"\n"); }).rfind("t.toml:2: run.workload: 'vecsub' is not one of", 0) ==
          0);
}
