// SPDX-License-Identifier: Apache-2.0
// Every name of every registry runs: the registries come from the catalogue and the config
// keys that choose from each from the declared parameters, so a new policy is exercised the day
// it registers, and a new kind of registry fails here until it has a run recipe.
#include <catch2/catch.hpp>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "sim/registry_catalogue.h"
#include "tests/system/cli_runner.h"
#include "top/noc_config.h"
#include "top/run_config.h"

using namespace stacksim;
using namespace stacksim::test;

namespace {

/// How the names of the registry behind a config key are exercised.
struct Recipe {
    std::string args;        ///< `stacksim run ARGS` (or `stacksim noc ARGS` with `noc`)
    bool noc = false;
    std::string covered_by;  ///< instead of runs: the test that walks this registry itself
};

const std::string kManaged = "small --workload bfs:1500 --set uvm.mode=managed --set uvm.capacity_fraction=0.5";
const std::string kNocMesh = STACKSIM_SOURCE_DIR "/configs/noc/mesh.toml --rate 0.1 --set traffic.measure=2000 "
                                                 "--set traffic.warmup=500";
const std::string kNocStacked = STACKSIM_SOURCE_DIR "/configs/noc/stacked.toml --rate 0.2 --set traffic.measure=2000 "
                                                    "--set traffic.warmup=500";
const std::string kTwoApps =
    "small --app matmul:96 --app vecadd:20000@5us^1 --set run.alone_runs=false --set host.timed_copies=false";

/// Run recipes by config key ("stacksim noc: " marks the keys of `stacksim noc`).
const std::map<std::string, Recipe>& recipes() {
    static const std::map<std::string, Recipe> r = {
        {"gpu.sm.warp_scheduler", {"small --workload matmul:32", false, ""}},
        {"gpu.cta_scheduler", {"small --workload vecadd:20000", false, ""}},
        {"gpu.l1.replacement", {"gtx980 --workload atax:64", false, ""}},
        {"memory.l2.replacement", {"gtx980 --workload atax:64", false, ""}},
        {"memory.dram.scheduler", {"gtx980 --workload vecadd:8192", false, ""}},
        {"memory.dram.model", {"gtx980 --workload vecadd:8192", false, ""}},
        {"uvm.mechanism", {kManaged, false, ""}},
        {"uvm.eviction", {kManaged, false, ""}},
        {"uvm.prefetcher", {kManaged, false, ""}},
        {"memory.noc.routing", {"gtx980 --workload vecadd:8192 --set memory.interconnect=mesh", false, ""}},
        {"preemption.policy", {kTwoApps, false, ""}},
        {"kernel_scheduler.policy", {kTwoApps + " --set preemption.policy=switch --set gpu.sm_sharing=spatial", false, ""}},
        {"run.workload", {"", false, "tests/unit/test_workload_library.cpp (every workload, several sizes)"}},
        {"stacksim noc: noc.layer_policy", {kNocStacked, true, ""}},
        {"stacksim noc: noc.routing", {kNocMesh, true, ""}},
        {"stacksim noc: noc.topology", {kNocMesh + " --set noc.concentration=2", true, ""}},
        {"stacksim noc: traffic.pattern", {kNocMesh, true, ""}},
    };
    return r;
}

/// The config keys choosing from registry `kind`, in both tools.
std::vector<std::string> keys_of(const std::string& kind) {
    std::vector<std::string> keys;
    for (const auto& [tool, docs] : {std::make_pair(std::string(), top::run_config_docs()),
                                     std::make_pair(std::string("stacksim noc: "), top::noc_config_docs())})
        for (const sim::SectionDoc& sec : docs)
            for (const sim::ParamDoc& d : sec.params)
                if (d.registry == kind) keys.push_back(tool + sec.path + "." + d.key);
    return keys;
}

/// Runs each name of `registry` with `key` = NAME: each must exit 0; a GPU run must verify its
/// output and record the choice in its effective config.
void run_each(const sim::PolicyCatalog& registry, const std::string& key, const Recipe& r) {
    const bool noc = key.rfind("stacksim noc: ", 0) == 0;
    const std::string k = noc ? key.substr(14) : key;
    for (const std::string& name : registry.names()) {
        const std::string dir = temp_dir();
        const CliResult res = noc ? run_cli("noc " + r.args + " --set " + k + "=" + name)
                                  : run_cli("run " + r.args + " --set " + k + "=" + name + " --quiet --out " + dir);
        INFO(registry.kind() << " " << name << " (" << key << "):\n" << res.output);
        REQUIRE(res.exit_code == 0);
        if (noc) continue;
        const auto s = nlohmann::json::parse(read_file(dir + "/summary.json"));
        CHECK(s["verification"]["passed"] == true);
        const std::string leaf = k.substr(k.rfind('.') + 1);
        CHECK(read_file(dir + "/config.toml").find(leaf + " = '" + name + "'") != std::string::npos);
    }
}

}  // namespace

TEST_CASE("every policy: the catalogue holds every registry, each chosen by a config key", "[registry]") {
    const auto registries = sim::RegistryCatalogue::instance().registries();
    REQUIRE(registries.size() >= 15);
    for (const sim::PolicyCatalog* r : registries) {
        INFO(r->kind());
        CHECK_FALSE(r->summary().empty());
        CHECK(r->summary().find(':') != std::string::npos);  // "plural: what it chooses"
        CHECK(r->names().size() >= 2);
        const auto keys = keys_of(r->kind());
        CHECK_FALSE(keys.empty());
        bool has_recipe = false;
        for (const auto& k : keys) has_recipe = has_recipe || recipes().count(k);
        CHECK(has_recipe);  // a new kind of registry: add its recipe above
    }
}

namespace {

/// Runs every registry whose index in the catalogue is `part` modulo kParts (test cases share
/// the registries so that ctest runs them in parallel).
constexpr size_t kParts = 6;
void run_part(size_t part) {
    const auto registries = sim::RegistryCatalogue::instance().registries();
    for (size_t i = part; i < registries.size(); i += kParts)
        for (const std::string& key : keys_of(registries[i]->kind())) {
            auto it = recipes().find(key);
            if (it == recipes().end() || !it->second.covered_by.empty()) continue;
            run_each(*registries[i], key, it->second);
        }
}

}  // namespace

TEST_CASE("every policy: registries part 1", "[registry]") { run_part(0); }
TEST_CASE("every policy: registries part 2", "[registry]") { run_part(1); }
TEST_CASE("every policy: registries part 3", "[registry]") { run_part(2); }
TEST_CASE("every policy: registries part 4", "[registry]") { run_part(3); }
TEST_CASE("every policy: registries part 5", "[registry]") { run_part(4); }
TEST_CASE("every policy: registries part 6", "[registry]") { run_part(5); }
