// SPDX-License-Identifier: Apache-2.0
// Every name of every policy registry runs: a small simulation per registered policy, taken
// from the registries themselves so that a new policy is exercised the day it registers.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "common/replacement_policy.h"
#include "memory/dram_scheduler.h"
#include "memory/eviction_policy.h"
#include "memory/migration_mechanism.h"
#include "memory/prefetcher.h"
#include "noc/layer_policy.h"
#include "noc/routing.h"
#include "sched/cta_placement.h"
#include "sched/preemption_policy.h"
#include "sched/warp_scheduler_registry.h"
#include "tests/system/cli_runner.h"

using namespace stacksim;
using namespace stacksim::test;

namespace {

/// Runs `stacksim run ARGS` for each name of `catalog` with `key=NAME` set; each must exit 0,
/// verify its output and record the policy in its effective config.
void run_each(const sim::PolicyCatalog& catalog, const std::string& args, const std::string& key) {
    REQUIRE(catalog.names().size() >= 2);
    for (const std::string& name : catalog.names()) {
        const std::string dir = temp_dir();
        const CliResult r = run_cli("run " + args + " --set " + key + "=" + name + " --quiet --out " + dir);
        INFO(catalog.kind() << " " << name << ":\n" << r.output);
        REQUIRE(r.exit_code == 0);
        const auto s = nlohmann::json::parse(read_file(dir + "/summary.json"));
        CHECK(s["verification"]["passed"] == true);
        const std::string leaf = key.substr(key.rfind('.') + 1);
        CHECK(read_file(dir + "/config.toml").find(leaf + " = '" + name + "'") != std::string::npos);
    }
}

const std::string kManaged = "small --workload bfs:1500 --set uvm.mode=managed --set uvm.capacity_fraction=0.5";

}  // namespace

TEST_CASE("every policy: each warp scheduler runs", "[registry]") {
    run_each(sched::warp_schedulers(), "small --workload matmul:32", "gpu.sm.warp_scheduler");
}

TEST_CASE("every policy: each CTA placement runs", "[registry]") {
    run_each(sched::cta_placements(), "small --workload vecadd:20000", "gpu.cta_scheduler");
}

TEST_CASE("every policy: each replacement policy runs as L1 and as L2", "[registry]") {
    run_each(common::replacement_policies(), "gtx980 --workload atax:64", "gpu.l1.replacement");
    run_each(common::replacement_policies(), "gtx980 --workload atax:64", "memory.l2.replacement");
}

TEST_CASE("every policy: each DRAM scheduler runs", "[registry]") {
    run_each(memory::dram_schedulers(), "gtx980 --workload vecadd:8192", "memory.dram.scheduler");
}

TEST_CASE("every policy: each migration mechanism, eviction policy and prefetcher runs", "[registry]") {
    run_each(memory::migration_mechanisms(), kManaged, "uvm.mechanism");
    run_each(memory::eviction_policies(), kManaged, "uvm.eviction");
    run_each(memory::prefetchers(), kManaged, "uvm.prefetcher");
}

TEST_CASE("every policy: each routing function runs the GPU's mesh interconnect", "[registry]") {
    run_each(noc::routing_functions(), "gtx980 --workload vecadd:8192 --set memory.interconnect=mesh",
             "memory.noc.routing");
}

TEST_CASE("every policy: each layer policy runs the 2.5D network", "[registry]") {
    for (const std::string& name : noc::layer_policies().names()) {
        const CliResult r = run_cli("noc " STACKSIM_SOURCE_DIR "/configs/noc/stacked.toml --rate 0.2 --set noc.layer_policy=" +
                                    name + " --set traffic.measure=2000 --set traffic.warmup=500");
        INFO(name << ":\n" << r.output);
        REQUIRE(r.exit_code == 0);
        CHECK(r.output.find("layer policy " + name) != std::string::npos);
    }
}

TEST_CASE("every policy: each preemption policy runs two applications", "[registry][preemption]") {
    run_each(sched::preemption_policies(),
             "small --app matmul:96 --app vecadd:20000@5us^1 --set run.alone_runs=false --set host.timed_copies=false",
             "preemption.policy");
}
