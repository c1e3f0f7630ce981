// SPDX-License-Identifier: Apache-2.0
// gto_capped: greedy like GTO until the streak cap, then oldest first.
#include <catch2/catch.hpp>

#include "sched/warp_scheduler_registry.h"
#include "tests/unit/policy_spec.h"

using namespace stacksim;

TEST_CASE("gto_capped: the greedy warp keeps priority for max_streak issues, then yields to the oldest", "[policy]") {
    auto p = sched::warp_schedulers().create(test::policy_spec(sched::warp_schedulers(), "gto_capped", "max_streak = 2"));
    const std::vector<core::WarpRef> warps = {{4, 10}, {1, 11}, {7, 12}};
    std::vector<uint32_t> order;
    p->on_issue(7, false);
    p->prioritize(warps, order);
    CHECK(order == std::vector<uint32_t>{7, 4, 1});  // greedy, as GTO
    p->on_issue(7, false);
    p->prioritize(warps, order);
    CHECK(order == std::vector<uint32_t>{4, 1, 7});  // two in a row: the oldest goes first
    p->on_issue(4, false);
    p->prioritize(warps, order);
    CHECK(order == std::vector<uint32_t>{4, 1, 7});  // a new streak starts
    auto gto = sched::warp_schedulers().create("gto");
    gto->on_issue(7, false);
    gto->on_issue(7, false);
    gto->prioritize(warps, order);
    CHECK(order == std::vector<uint32_t>{7, 4, 1});  // plain GTO never yields
}
