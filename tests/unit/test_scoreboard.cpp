// SPDX-License-Identifier: Apache-2.0
// Scoreboard: RAW and WAW hazards, memory vs execution dependencies.
#include <catch2/catch.hpp>

#include "core/scoreboard.h"

using namespace stacksim::core;

namespace {
Instruction inst(std::initializer_list<uint16_t> writes, std::initializer_list<uint16_t> reads) {
    Instruction i;
    for (uint16_t w : writes) i.writes[i.num_writes++] = w;
    for (uint16_t r : reads) i.reads[i.num_reads++] = r;
    return i;
}
}  // namespace

TEST_CASE("scoreboard: RAW on a pending destination blocks until release", "[scoreboard]") {
    Scoreboard sb;
    sb.reset(8);
    sb.reserve(inst({1}, {}), false);
    CHECK(sb.check(inst({2}, {1})) == Hazard::Execution);
    CHECK(sb.check(inst({2}, {3})) == Hazard::None);
    sb.release(1);
    CHECK(sb.check(inst({2}, {1})) == Hazard::None);
    CHECK(sb.pending_count() == 0);
}

TEST_CASE("scoreboard: WAW blocks and a load's destination is a memory dependency", "[scoreboard]") {
    Scoreboard sb;
    sb.reset(8);
    sb.reserve(inst({4}, {}), true);
    CHECK(sb.check(inst({4}, {0})) == Hazard::Memory);
    CHECK(sb.check(inst({5}, {4})) == Hazard::Memory);
    sb.reserve(inst({6}, {}), false);
    CHECK(sb.check(inst({7}, {4, 6})) == Hazard::Memory);  // memory wins when both pend
    CHECK(sb.check(inst({7}, {6})) == Hazard::Execution);
    CHECK(sb.pending_count() == 2);
    sb.release(4);
    sb.release(4);  // double release is harmless
    CHECK(sb.pending_count() == 1);
}
