// SPDX-License-Identifier: Apache-2.0
// The issue memo's rules: what invalidates a scheduler's or a warp's remembered stall.
#include <catch2/catch.hpp>

#include "core/issue_memo.h"
#include "core/warp.h"

using namespace stacksim::core;

TEST_CASE("issue memo: a scheduler's stall holds until its wake, a touch, or a new epoch", "[issue_memo]") {
    IssueMemo m;
    m.resize(2, 8);
    CtaSlot cta;
    CHECK(m.reusable(0, 10, 0) == nullptr);  // nothing recorded
    m.record(0, IssueOutcome::MemoryDependency, &cta, 15, 3);
    const IssueMemo::Entry* e = m.reusable(0, 10, 3);
    REQUIRE(e != nullptr);
    CHECK(e->outcome == IssueOutcome::MemoryDependency);
    CHECK(e->charged == &cta);
    CHECK(m.reusable(0, 14, 3) != nullptr);
    CHECK(m.reusable(0, 15, 3) == nullptr);  // its wake: the scan may differ from here on
    CHECK(m.reusable(0, 10, 4) == nullptr);  // a CTA changed
    CHECK(m.reusable(1, 10, 3) == nullptr);  // another scheduler
    m.touch(4, 1);                           // warp 4 belongs to scheduler 1: scheduler 0 keeps its memo
    CHECK(m.reusable(0, 10, 3) != nullptr);
    m.touch(2, 0);
    CHECK(m.reusable(0, 10, 3) == nullptr);
    m.record(1, IssueOutcome::Synchronization, &cta, ~uint64_t{0}, 3);
    CHECK(m.reusable(1, 1000000, 3) != nullptr);  // no timed condition: holds until an event
    m.invalidate_all();
    CHECK(m.reusable(1, 11, 3) == nullptr);
}

TEST_CASE("issue memo: a warp's own stall holds until it is touched, its wake, or a new epoch", "[issue_memo]") {
    IssueMemo m;
    m.resize(2, 8);
    CHECK(m.warp(5, 0, 0) == nullptr);
    m.record_warp(5, IssueOutcome::Fetch, false, 40, 7);
    const IssueMemo::WarpEntry* e = m.warp(5, 39, 7);
    REQUIRE(e != nullptr);
    CHECK(e->outcome == IssueOutcome::Fetch);
    CHECK_FALSE(e->has_instruction);
    CHECK(m.warp(5, 40, 7) == nullptr);
    CHECK(m.warp(5, 39, 8) == nullptr);
    m.record_warp(5, IssueOutcome::ExecutionDependency, true, ~uint64_t{0}, 7);
    m.invalidate_all();  // schedulers only: a warp's own reason does not depend on the throttle
    CHECK(m.warp(5, 100, 7) != nullptr);
    m.record(1, IssueOutcome::ExecutionDependency, nullptr, ~uint64_t{0}, 7);
    m.touch(5, 1);
    CHECK(m.warp(5, 100, 7) == nullptr);
    CHECK(m.reusable(1, 100, 7) == nullptr);  // touching a warp also makes its scheduler scan again
}
