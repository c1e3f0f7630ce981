// SPDX-License-Identifier: Apache-2.0
// The plain preemption policies: none, drain, switch, and flush-when-idempotent.
#include "sched/preemption_policy.h"

namespace stacksim::sched {

PreemptionPolicyRegistry& preemption_policies() {
    static PreemptionPolicyRegistry registry("preemption policy", "preemption policies: which SMs a higher-priority kernel takes, and how their CTAs leave");
    return registry;
}

uint64_t PreemptionPolicy::latency(const CtaEstimate& e, core::PreemptTechnique t) {
    switch (t) {
    case core::PreemptTechnique::Drain: return e.drain_cycles;
    case core::PreemptTechnique::Switch: return e.switch_cycles;
    case core::PreemptTechnique::Flush: return 0;
    }
    return 0;
}

namespace {

using T = core::PreemptTechnique;

class NoPreemption final : public PreemptionPolicy {
public:
    bool preempts() const override { return false; }
    T choose(const CtaEstimate&) const override { return T::Drain; }
};

class Fixed final : public PreemptionPolicy {
public:
    explicit Fixed(T t) : m_t(t) {}
    bool moves_context() const override { return m_t != T::Drain; }
    T choose(const CtaEstimate& e) const override {
        if (m_t == T::Flush && !e.idempotent) return T::Switch;
        return m_t;
    }

private:
    T m_t;
};

const bool registered =
    preemption_policies().add("none", "never preempt: a higher-priority kernel only wins the CTA slots that free up",
                              [] { return std::make_unique<NoPreemption>(); }) &&
    preemption_policies().add("drain", "let every CTA of the chosen SMs run to its end (no new CTAs start there)",
                              [] { return std::make_unique<Fixed>(T::Drain); }) &&
    preemption_policies().add("switch", "context-switch every CTA of the chosen SMs (save through memory, resume later)",
                              [] { return std::make_unique<Fixed>(T::Switch); }) &&
    preemption_policies().add("flush", "flush the CTAs of idempotent kernels (they restart later), switch the others",
                              [] { return std::make_unique<Fixed>(T::Flush); });

}  // namespace

}  // namespace stacksim::sched
