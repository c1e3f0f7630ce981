// SPDX-License-Identifier: Apache-2.0
// The issue memo (core/issue_memo.h) is a host-speed device only: every statistic of a run is
// the same with gpu.sm.issue_memo on and off, whatever the warp scheduler, with barriers,
// divergence, memory throttling, preemption and demand paging.
#include <catch2/catch.hpp>

#include <string>

#include "tests/system/verified_run.h"

using namespace stacksim::test;

namespace {

/// Runs `args` with the memo on and off and requires byte-identical statistics.
VerifiedRun same_with_and_without_memo(const std::string& args) {
    const VerifiedRun on = run_verified(args + " --set gpu.sm.issue_memo=true");
    const VerifiedRun off = run_verified(args + " --set gpu.sm.issue_memo=false");
    INFO(args);
    for (auto it = off.stats.begin(); it != off.stats.end(); ++it) {
        INFO(it.key());
        REQUIRE(on.stats.contains(it.key()));
        CHECK(on.stats[it.key()] == it.value());
    }
    CHECK(on.stats.size() == off.stats.size());
    CHECK(stat_value(off, "gpu.sm0.warp_instructions") > 0);
    return off;
}

}  // namespace

TEST_CASE("issue memo: statistics are identical with and without it, under every warp scheduler",
          "[issue_memo][system]") {
    for (const char* policy : {"lrr", "gto", "gto_capped", "two_level", "ccws"}) {
        const VerifiedRun r =
            same_with_and_without_memo(std::string("small --workload matmul:48 --set gpu.sm.warp_scheduler=") + policy);
        // Barrier stalls to remember (two_level leaves barrier waiters out of its order).
        if (std::string(policy) != "two_level") CHECK(stat_value(r, "gpu.sm0.issue.stall_synchronization") > 0);
        CHECK(stat_value(r, "gpu.sm0.issue.stall_memory_dependency") > 0);
    }
}

TEST_CASE("issue memo: identical with divergence, a throttled memory path and barriers", "[issue_memo][system]") {
    const VerifiedRun r = same_with_and_without_memo("small --workload bfs:1500 --set gpu.sm.max_pending_requests=2");
    CHECK(stat_value(r, "gpu.sm0.issue.stall_memory_throttle") > 0);
    same_with_and_without_memo("gtx980 --workload atax:64");
}

TEST_CASE("issue memo: identical when CTAs are preempted and when pages fault", "[issue_memo][system]") {
    same_with_and_without_memo(
        "small --app matmul:96 --app vecadd:20000@5us^1 --set host.timed_copies=false --set preemption.policy=switch");
    same_with_and_without_memo("small --workload bfs:1500 --set uvm.mode=managed --set uvm.capacity_fraction=0.5");
}
