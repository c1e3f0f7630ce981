// SPDX-License-Identifier: Apache-2.0
// Operand collector: register-bank conflicts delay operand collection.
#include <catch2/catch.hpp>

#include "core/operand_collector.h"

using namespace stacksim::core;

namespace {
Instruction reads(std::initializer_list<uint16_t> regs) {
    Instruction i;
    for (uint16_t r : regs) i.reads[i.num_reads++] = r;
    return i;
}
}  // namespace

TEST_CASE("collector: sources in different banks are read in one cycle", "[collector]") {
    OperandCollector oc(16, 4);
    CHECK(oc.collect(reads({1, 2, 3}), 0, 100) == 101);
    CHECK(oc.conflict_cycles() == 0);
}

TEST_CASE("collector: two sources in one bank cost a cycle each", "[collector]") {
    OperandCollector oc(16, 4);
    CHECK(oc.collect(reads({1, 17}), 0, 100) == 102);  // r1 and r17 share bank 1
    CHECK(oc.collect(reads({1, 17, 33}), 0, 200) == 203);
    CHECK(oc.conflict_cycles() == 1 + 3);
}

TEST_CASE("collector: banks are skewed by warp and busy banks delay later instructions", "[collector]") {
    OperandCollector oc(16, 4);
    CHECK(oc.collect(reads({1}), 0, 100) == 101);
    CHECK(oc.collect(reads({1}), 1, 100) == 101);  // warp 1's r1 lives in bank 2
    CHECK(oc.collect(reads({2}), 0, 100) == 102);  // bank 2 was just read for warp 1
}

TEST_CASE("collector: units run out and free up when their operands are read", "[collector]") {
    OperandCollector oc(16, 2);
    oc.collect(reads({1, 17, 33}), 0, 10);  // busy until 13
    oc.collect(reads({2}), 0, 10);          // busy until 11
    CHECK_FALSE(oc.unit_free(10));
    CHECK(oc.next_unit_free() == 11);
    CHECK(oc.unit_free(11));
}
