// SPDX-License-Identifier: Apache-2.0
// SIMT stack: the textbook divergence example and edge cases.
#include <catch2/catch.hpp>

#include <utility>
#include <vector>

#include "core/simt_stack.h"

using stacksim::core::kNoTarget;
using stacksim::core::SimtStack;

namespace {
enum Pc : uint32_t { A = 0, B = 1, C = 2, D = 3, E = 4, F = 5, G = 6 };
}

TEST_CASE("simt: textbook example A/1111 -> B/1110,F/0001, B -> C/1000,D/0110 -> E -> G",
          "[simt]") {
    // 003 §3.3.2 figs 3-5/3-6; lane 3 is the leftmost digit of the textbook's masks.
    SimtStack s;
    std::vector<std::pair<uint32_t, uint32_t>> trace;
    s.reset(A, 0b1111);
    trace.emplace_back(s.pc(), s.mask());
    REQUIRE(s.branch(A, F, G, 0b0001));  // lane 0 goes to F, the rest fall through to B
    trace.emplace_back(s.pc(), s.mask());
    REQUIRE(s.branch(B, D, E, 0b0110));  // B: lanes 1,2 to D, lane 3 falls to C
    trace.emplace_back(s.pc(), s.mask());
    REQUIRE_FALSE(s.branch(C, E, kNoTarget, 0b1000));  // C ends with bra E
    trace.emplace_back(s.pc(), s.mask());
    s.advance(E);  // D falls into E: reconverged
    trace.emplace_back(s.pc(), s.mask());
    REQUIRE_FALSE(s.branch(E, G, kNoTarget, 0b1110));  // E ends with bra G
    trace.emplace_back(s.pc(), s.mask());
    s.advance(G);  // F falls into G: everyone reconverged
    trace.emplace_back(s.pc(), s.mask());

    std::vector<std::pair<uint32_t, uint32_t>> expected = {
        {A, 0b1111}, {B, 0b1110}, {C, 0b1000}, {D, 0b0110}, {E, 0b1110}, {F, 0b0001}, {G, 0b1111}};
    CHECK(trace == expected);
    CHECK(s.depth() == 1);
}

TEST_CASE("simt: uniform branch does not push", "[simt]") {
    SimtStack s;
    s.reset(0, 0xFFFFFFFF);
    CHECK_FALSE(s.branch(0, 7, 9, 0xFFFFFFFF));
    CHECK(s.pc() == 7);
    CHECK_FALSE(s.branch(7, 3, 9, 0));
    CHECK(s.pc() == 8);
    CHECK(s.depth() == 1);
}

TEST_CASE("simt: a side starting at the reconvergence point is not pushed", "[simt]") {
    SimtStack s;
    s.reset(0, 0b11);
    // if (lane0) { body at 1 } ; join at 2: taken lanes jump straight to the join.
    REQUIRE(s.branch(0, 2, 2, 0b10));
    CHECK(s.pc() == 1);
    CHECK(s.mask() == 0b01);
    CHECK(s.depth() == 2);
    s.advance(2);
    CHECK(s.pc() == 2);
    CHECK(s.mask() == 0b11);
    CHECK(s.depth() == 1);
}

TEST_CASE("simt: nested divergence reconverges inner before outer", "[simt]") {
    SimtStack s;
    s.reset(0, 0xF);
    REQUIRE(s.branch(0, 10, 20, 0x3));   // outer: lanes 0,1 -> 10; lanes 2,3 -> 1
    CHECK(s.mask() == 0xC);
    REQUIRE(s.branch(1, 5, 8, 0x4));     // inner: lane 2 -> 5; lane 3 -> 2
    CHECK(s.pc() == 2);
    CHECK(s.mask() == 0x8);
    CHECK(s.depth() == 5);  // outer waiting + taken, inner waiting + both sides
    s.advance(8);                        // lane 3 reaches the inner join
    CHECK(s.pc() == 5);
    CHECK(s.mask() == 0x4);
    s.advance(8);
    CHECK(s.pc() == 8);
    CHECK(s.mask() == 0xC);
    s.advance(20);                       // the outer fall-through side reaches the outer join
    CHECK(s.pc() == 10);
    CHECK(s.mask() == 0x3);
    s.advance(20);
    CHECK(s.mask() == 0xF);
    CHECK(s.depth() == 1);
}

TEST_CASE("simt: exiting lanes leave every entry, the stack empties when all exit", "[simt]") {
    SimtStack s;
    s.reset(0, 0xF);
    REQUIRE(s.branch(0, 10, 20, 0x3));
    s.exit(0xC);  // the fall-through side returns early
    CHECK(s.pc() == 10);
    CHECK(s.mask() == 0x3);
    s.advance(20);
    CHECK(s.mask() == 0x3);  // the reconvergence entry lost lanes 2 and 3
    s.exit(0x3);
    CHECK(s.empty());
}

TEST_CASE("simt: divergence with no post-dominator but the exit runs both sides to exit", "[simt]") {
    SimtStack s;
    s.reset(0, 0x3);
    REQUIRE(s.branch(0, 5, kNoTarget, 0x1));
    CHECK(s.pc() == 1);
    CHECK(s.mask() == 0x2);
    s.exit(0x2);
    CHECK(s.pc() == 5);
    CHECK(s.mask() == 0x1);
    s.exit(0x1);
    CHECK(s.empty());
}

TEST_CASE("simt: call and ret under divergence return every lane of the call together", "[simt][calls]") {
    // Caller at 10 calls a function at 100 with lanes 0-3 active; inside, a branch at 101 with
    // no post-dominator but the returns sends lanes 0,1 to 110 (ret) and 2,3 to 102 (ret).
    SimtStack s;
    s.reset(10, 0b1111);
    s.call(10, 100, 0, 0b1111);
    CHECK(s.call_depth() == 1);
    CHECK(s.pc() == 100);
    s.advance(101);
    REQUIRE(s.branch(101, 110, kNoTarget, 0b0011));
    CHECK(s.pc() == 102);  // the fall-through side first
    CHECK(s.mask() == 0b1100);
    s.ret(0b1100);
    CHECK(s.call_depth() == 1);  // lanes 0,1 still in the call
    CHECK(s.pc() == 110);
    CHECK(s.mask() == 0b0011);
    s.ret(0b0011);
    CHECK(s.call_depth() == 0);
    CHECK(s.pc() == 11);  // the caller continues with all its lanes
    CHECK(s.mask() == 0b1111);
}

TEST_CASE("simt: a guarded call and an indirect call's second target", "[simt][calls]") {
    SimtStack s;
    s.reset(5, 0b1111);
    // Lanes 0,1 call the first target, lanes 2 (another target) redo the call, lane 3's guard is false.
    s.call(5, 50, 0b0100, 0b0011);
    CHECK(s.pc() == 50);
    CHECK(s.mask() == 0b0011);
    s.ret(0b0011);
    CHECK(s.pc() == 5);  // the call again, for lane 2
    CHECK(s.mask() == 0b0100);
    s.call(5, 70, 0, 0b0100);
    CHECK(s.call_depth() == 1);
    s.ret(0b0100);
    CHECK(s.call_depth() == 0);
    CHECK(s.depth() == 1);  // the redo entry reached its reconvergence point (6) and popped
    CHECK(s.pc() == 6);
    CHECK(s.mask() == 0b1111);
}
