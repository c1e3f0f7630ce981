// SPDX-License-Identifier: Apache-2.0
// Stats registry dumps and the warp-scheduler policies' orderings.
#include <catch2/catch.hpp>

#include <algorithm>

#include "memory/dram_scheduler.h"
#include "common/tag_array.h"
#include "sched/cta_dispatcher.h"
#include "memory/migration_mechanism.h"
#include "memory/eviction_policy.h"
#include "memory/prefetcher.h"
#include "noc/routing.h"
#include "noc/layer_policy.h"
#include "common/replacement_policy.h"
#include "sched/cta_placement.h"
#include "sched/warp_scheduler_registry.h"
#include "tests/unit/policy_spec.h"
#include "sim/stats.h"

using namespace stacksim;

TEST_CASE("stats: counters, averages, histograms and formulas dump by name", "[stats]") {
    sim::StatRegistry r;
    sim::Counter c;
    sim::Average a;
    sim::Histogram h(10, 4);
    sim::StatGroup g(r, "gpu.sm0");
    g.add("hits", c, "hits", "requests");
    g.add("lat", a, "latency", "cycles");
    g.add("hist", h, "latency histogram", "cycles");
    g.add_formula("twice", [&] { return 2.0 * static_cast<double>(c.value()); }, "2x hits", "requests");
    c += 5;
    a.sample(2);
    a.sample(4);
    h.sample(3);
    h.sample(1000);
    auto j = r.to_json();
    CHECK(j["gpu.sm0.hits"]["value"] == 5);
    CHECK(j["gpu.sm0.hits"]["unit"] == "requests");
    CHECK(j["gpu.sm0.lat"]["value"]["mean"] == 3.0);
    CHECK(j["gpu.sm0.hist"]["value"]["counts"] == std::vector<uint64_t>{1, 0, 0, 1});
    CHECK(r.value("gpu.sm0.twice") == 10.0);
    CHECK(r.to_csv().find("gpu.sm0.hits,5,requests") != std::string::npos);
    CHECK(r.to_text().find("gpu.sm0.twice") != std::string::npos);
    CHECK_THROWS(g.add("hits", c, "again", "requests"));
}

namespace {
/// Every name of `expected` is registered in `catalog` (others may be too: a new policy
/// registers itself without touching this test).
void expect_names(const sim::PolicyCatalog& catalog, const std::vector<std::string>& expected) {
    const auto names = catalog.names();
    for (const auto& n : expected) {
        INFO(catalog.kind() << " " << n);
        CHECK(std::find(names.begin(), names.end(), n) != names.end());
    }
}
}  // namespace

TEST_CASE("policies: registry knows lrr and gto", "[policy]") {
    expect_names(sched::warp_schedulers(), {"ccws", "gto", "lrr", "oldest", "two_level"});
    CHECK_THROWS_AS(sched::warp_schedulers().create("nope"), sim::InputError);
}

TEST_CASE("policies: LRR rotates past the last issuer, GTO sticks to it, then oldest", "[policy]") {
    std::vector<core::WarpRef> warps = {{4, 10}, {1, 11}, {7, 12}, {2, 13}};
    std::vector<uint32_t> order;
    auto lrr_ptr = sched::warp_schedulers().create("lrr");
    auto& lrr = *lrr_ptr;
    lrr.prioritize(warps, order);
    CHECK(order == std::vector<uint32_t>{4, 1, 7, 2});
    lrr.on_issue(1, false);
    lrr.prioritize(warps, order);
    CHECK(order == std::vector<uint32_t>{7, 2, 4, 1});
    auto gto_ptr = sched::warp_schedulers().create("gto");
    auto& gto = *gto_ptr;
    gto.prioritize(warps, order);
    CHECK(order == std::vector<uint32_t>{4, 1, 7, 2});
    gto.on_issue(7, false);
    gto.prioritize(warps, order);
    CHECK(order == std::vector<uint32_t>{7, 4, 1, 2});
    std::vector<core::WarpRef> shuffled = {{2, 13}, {7, 12}, {4, 10}, {1, 11}};
    gto.prioritize(shuffled, order);
    CHECK(order == std::vector<uint32_t>{7, 4, 1, 2});
}

TEST_CASE("policies: oldest-first ignores who issued last", "[policy]") {
    std::vector<core::WarpRef> warps = {{4, 10}, {1, 11}, {7, 12}};
    std::vector<uint32_t> order;
    auto policy = sched::warp_schedulers().create("oldest");
    auto& p = *policy;
    p.on_issue(7, false);
    p.prioritize(warps, order);
    CHECK(order == std::vector<uint32_t>{4, 1, 7});
}

TEST_CASE("policies: two-level schedules an active set and demotes on long-latency loads", "[policy]") {
    auto policy = sched::warp_schedulers().create(
        test::policy_spec(sched::warp_schedulers(), "two_level", "active_warps = 2"));
    auto& p = *policy;
    std::vector<core::WarpRef> warps = {{0, 0}, {1, 1}, {2, 2}, {3, 3}};
    std::vector<uint32_t> order;
    p.prioritize(warps, order);
    CHECK(order == std::vector<uint32_t>{0, 1});  // only the active set is scheduled
    p.on_issue(0, true);                           // warp 0 issues a global load: demoted
    warps[0].waiting_memory = true;
    p.prioritize(warps, order);
    CHECK(order == std::vector<uint32_t>{1, 2});   // the oldest ready pending warp is promoted
    warps[0].waiting_memory = false;               // its load returned, but the set is full
    p.on_issue(1, false);
    p.prioritize(warps, order);
    CHECK(order == std::vector<uint32_t>{2, 1});   // round robin within the active set
}

TEST_CASE("policies: CCWS throttles warps once another loses locality", "[policy]") {
    auto policy = sched::warp_schedulers().create(
        test::policy_spec(sched::warp_schedulers(), "ccws", "score_bump = 128\ncutoff = 64"));
    auto& p = *policy;
    std::vector<core::WarpRef> warps = {{0, 0}, {1, 1}, {2, 2}, {3, 3}};
    std::vector<uint32_t> order;
    p.prioritize(warps, order);
    CHECK(order.size() == 4);  // no lost locality: everyone is scheduled
    p.on_lost_locality(2);
    p.prioritize(warps, order);
    REQUIRE_FALSE(order.empty());
    CHECK(order.size() == 1);  // warp 2's score fills the budget: the others are throttled
    CHECK(order[0] == 2);
    for (int i = 0; i < 200; ++i) p.prioritize(warps, order);  // the score decays away
    CHECK(order.size() == 4);
}

TEST_CASE("policies: every policy kind has its expected names registered", "[policy]") {
    expect_names(sched::cta_placements(), {"fill", "round_robin"});
    expect_names(common::replacement_policies(), {"fifo", "lru", "plru", "srrip"});
    expect_names(memory::dram_schedulers(), {"fcfs", "frfcfs"});
    expect_names(memory::migration_mechanisms(), {"whole_page", "single_range", "multi_range"});
    expect_names(memory::eviction_policies(), {"age_lru", "lru", "fifo", "random"});
    expect_names(memory::prefetchers(), {"none", "sequential_local", "tree"});
    expect_names(noc::routing_functions(), {"xy", "yx", "west_first"});
    expect_names(noc::layer_policies(), {"dor", "localbuf", "destdetect", "dll"});
    for (const auto& n : common::replacement_policies().names()) CHECK(common::replacement_policies().create(n));
}
