// SPDX-License-Identifier: Apache-2.0
// PEP selection policies, the dirty-register mask and the context regions.
#include <catch2/catch.hpp>

#include <set>

#include "common/address_map.h"
#include "core/checkpoint.h"
#include "core/context_region.h"
#include "sched/preemption_policy.h"

using namespace stacksim;
using T = core::PreemptTechnique;

namespace {
sched::CtaEstimate cta(uint64_t measured_drain, uint64_t sw, uint32_t checkpoints) {
    sched::CtaEstimate e;
    e.drain_cycles = measured_drain;
    e.measured_drain_cycles = measured_drain;
    e.switch_cycles = sw;
    e.checkpoints = checkpoints;
    e.cycles_per_us = 1000.0;
    return e;
}
}  // namespace

TEST_CASE("pep: short CTAs drain, long ones and checkpointed ones are checkpointed", "[pep]") {
    for (const char* name : {"pep", "pep_inplace"}) {
        INFO(name);
        auto p = sched::preemption_policies().create(sim::PolicySpec(name));
        CHECK(p->dirty_tracking());
        CHECK(p->proactive());
        CHECK(p->in_place() == (std::string(name) == "pep_inplace"));
        CHECK(p->choose(cta(500, 4000, 0)) == T::Drain);      // (c)
        CHECK(p->choose(cta(90000, 4000, 0)) == T::Switch);   // (b)
        CHECK(p->choose(cta(500, 4000, 1)) == T::Switch);     // (a): it holds a first checkpoint
    }
}

TEST_CASE("pep: chimera_dirty chooses as chimera, with dirty tracking and no prediction", "[pep]") {
    auto p = sched::preemption_policies().create(sim::PolicySpec("chimera_dirty"));
    CHECK(p->dirty_tracking());
    CHECK_FALSE(p->proactive());
    CHECK_FALSE(p->in_place());
    CHECK(p->choose(cta(500, 4000, 0)) == T::Drain);
    CHECK(p->choose(cta(200000, 4000, 0)) == T::Switch);
    // The plain policies keep full saves.
    for (const char* name : {"none", "drain", "switch", "flush", "chimera"})
        CHECK_FALSE(sched::preemption_policies().create(sim::PolicySpec(name))->dirty_tracking());
}

TEST_CASE("pep: the register mask counts each written register once", "[pep]") {
    core::RegisterMask m{};
    core::mark_register(m, 3);
    core::mark_register(m, 3);
    core::mark_register(m, 70);
    core::mark_register(m, 255);
    CHECK(core::count_registers(m) == 3);
}

TEST_CASE("pep: staggered context regions start the SMs' saves on different partitions", "[pep][preemption]") {
    // gtx980's map: 8 partitions, 2 KiB interleave. The first slot of 8 consecutive SMs starts on
    // 8 different partitions, and so do the 8 slots of one SM; without the stagger all start on one.
    common::AddressMap map;
    map.partitions = 8;
    map.interleave_bytes = 2048;
    std::set<uint32_t> by_sm, by_slot, unstaggered;
    for (uint32_t i = 0; i < 8; ++i) {
        by_sm.insert(map.partition_of(core::context_region(i, 0, 2048, 8)));
        by_slot.insert(map.partition_of(core::context_region(3, i, 2048, 8)));
        unstaggered.insert(map.partition_of(core::context_region(i, i, 0, 1)));
    }
    CHECK(by_sm.size() == 8);
    CHECK(by_slot.size() == 8);
    CHECK(unstaggered.size() == 1);
    // Regions stay inside their slot's 1 MiB and leave room for a checkpoint.
    for (uint32_t sm = 0; sm < 64; ++sm)
        for (uint32_t slot = 0; slot < 32; ++slot) {
            const uint64_t r = core::context_region(sm, slot, 65536, 64);
            CHECK((r - common::kContextAreaBase) >> 20 == (uint64_t{sm} << 8) + slot);
            CHECK(core::context_region_bytes(r) >= core::kContextRegionBytes / 2);
        }
}
