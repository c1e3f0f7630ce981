// SPDX-License-Identifier: Apache-2.0
// Preemption selection policies: Chimera's choice by estimated latency and overhead.
#include <catch2/catch.hpp>

#include "sched/preemption_policy.h"

using namespace stacksim;
using T = core::PreemptTechnique;

namespace {
sched::CtaEstimate cta(uint64_t drain, uint64_t sw, uint64_t flush, bool idempotent) {
    sched::CtaEstimate e;
    e.drain_cycles = drain;
    e.switch_cycles = sw;
    e.flush_cycles = flush;
    e.idempotent = idempotent;
    e.cycles_per_us = 1000.0;  // 1 GHz
    return e;
}
std::unique_ptr<sched::PreemptionPolicy> chimera(double target_us) {
    sim::ConfigDoc doc = sim::ConfigDoc::from_string(
        "[preemption.chimera]\nlatency_target_us = " + std::to_string(target_us) + "\n", "t.toml");
    auto section = doc.section("preemption.chimera");
    sim::PolicySpec spec("chimera");
    spec.params = sched::preemption_policies().read_params("chimera", section, nullptr);
    spec.params_of = "chimera";
    return sched::preemption_policies().create(spec);
}
}  // namespace

TEST_CASE("chimera: drain for a CTA about to finish, switch for a long one", "[preemption]") {
    auto p = chimera(10.0);  // 10 us = 10000 cycles
    CHECK(p->choose(cta(500, 4000, 90000, false)) == T::Drain);
    CHECK(p->choose(cta(200000, 4000, 90000, false)) == T::Switch);
}

TEST_CASE("chimera: flush only for idempotent kernels, when cheaper than a switch", "[preemption]") {
    auto p = chimera(10.0);
    CHECK(p->choose(cta(200000, 4000, 1000, true)) == T::Flush);   // little work lost
    CHECK(p->choose(cta(200000, 4000, 1000, false)) == T::Switch);  // never flush
    CHECK(p->choose(cta(200000, 4000, 50000, true)) == T::Switch);  // flushing loses more
}

TEST_CASE("chimera: the latency target decides between drain and switch", "[preemption]") {
    const auto e = cta(12000, 4000, 90000, false);
    CHECK(chimera(15.0)->choose(e) == T::Drain);
    CHECK(chimera(5.0)->choose(e) == T::Switch);
    // Nothing meets the target: the fastest.
    CHECK(chimera(1.0)->choose(e) == T::Switch);
}

TEST_CASE("preemption policies: flush falls back to switch for non-idempotent kernels", "[preemption]") {
    auto flush = sched::preemption_policies().create(sim::PolicySpec("flush"));
    CHECK(flush->choose(cta(1, 1, 1, true)) == T::Flush);
    CHECK(flush->choose(cta(1, 1, 1, false)) == T::Switch);
    CHECK_FALSE(sched::preemption_policies().create(sim::PolicySpec("none"))->preempts());
    CHECK(sched::preemption_policies().create(sim::PolicySpec("drain"))->choose(cta(1e9, 1, 1, true)) == T::Drain);
}
