// SPDX-License-Identifier: Apache-2.0
// PEP selection policies and the dirty-register mask.
#include <catch2/catch.hpp>

#include "core/checkpoint.h"
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
