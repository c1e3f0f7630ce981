// SPDX-License-Identifier: Apache-2.0
// PEP (thesis ch.4) and its variants: Chimera with dirty tracking, PEP, PEP with in-place saves.
#include "sched/preemption_policy.h"

namespace stacksim::sched {

namespace {

using T = core::PreemptTechnique;

/// Parameters of chimera_dirty ([preemption.chimera_dirty]).
struct ChimeraDirtyParams {
    double latency_target_us = 10.0;
    static const sim::Params<ChimeraDirtyParams>& params() {
        static const auto p = [] {
            sim::Params<ChimeraDirtyParams> p;
            p.add("latency_target_us", &ChimeraDirtyParams::latency_target_us, "us",
                  "preemption latency a CTA's technique must meet, as chimera's")
                .range(0.0, 1e6);
            return p;
        }();
        return p;
    }
};

/// Chimera's choices; a switch saves only the dirty registers and shared-memory blocks.
class ChimeraDirty final : public PreemptionPolicy {
public:
    explicit ChimeraDirty(const ChimeraDirtyParams& p) : m_target_us(p.latency_target_us) {}
    T choose(const CtaEstimate& e) const override { return chimera_choice(e, m_target_us); }
    bool dirty_tracking() const override { return true; }

private:
    double m_target_us;
};

/// PEP: a CTA that already holds a checkpoint leaves with a second one; otherwise a long CTA
/// (its drain estimate, the measured average CTA time minus its elapsed time, exceeds the
/// worst-case switch estimate) is checkpointed and a short one drains. The same rule picks
/// the CTAs that take a first checkpoint at the predicted request.
class Pep final : public PreemptionPolicy {
public:
    explicit Pep(bool in_place) : m_in_place(in_place) {}
    T choose(const CtaEstimate& e) const override {
        if (e.checkpoints > 0) return T::Switch;
        return e.measured_drain_cycles <= e.switch_cycles ? T::Drain : T::Switch;
    }
    bool dirty_tracking() const override { return true; }
    bool proactive() const override { return true; }
    bool in_place() const override { return m_in_place; }

private:
    bool m_in_place;
};

const bool registered =
    preemption_policies().add_with<ChimeraDirtyParams>(
        "chimera_dirty", "chimera whose context switches save only dirty registers and shared-memory blocks",
        [](const ChimeraDirtyParams& p) { return std::make_unique<ChimeraDirty>(p); }) &&
    preemption_policies().add("pep",
                              "PEP: first checkpoints of long CTAs at the request predicted from the launch call, "
                              "a second (dirty-only) checkpoint at the request, short CTAs drain",
                              [] { return std::make_unique<Pep>(false); }) &&
    preemption_policies().add("pep_inplace",
                              "PEP whose last checkpoint stays in unused registers / shared memory of the SM when it fits",
                              [] { return std::make_unique<Pep>(true); });

}  // namespace

}  // namespace stacksim::sched
