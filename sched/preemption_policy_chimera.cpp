// SPDX-License-Identifier: Apache-2.0
// Chimera (Park et al., ASPLOS 2015): per CTA, the cheapest technique that meets a latency target.
#include "sched/preemption_policy.h"

namespace stacksim::sched {

namespace {

/// Parameters of chimera ([preemption.chimera]).
struct ChimeraParams {
    double latency_target_us = 10.0;
    static const sim::Params<ChimeraParams>& params() {
        static const auto p = [] {
            sim::Params<ChimeraParams> p;
            p.add("latency_target_us", &ChimeraParams::latency_target_us, "us",
                  "preemption latency a CTA's technique must meet (the thesis uses 5, 10 and 15)")
                .range(0.0, 1e6);
            return p;
        }();
        return p;
    }
};

using T = core::PreemptTechnique;

/// Among the techniques whose estimated latency meets the target, the one with the least
/// throughput overhead: drain costs nothing (the CTA's work is kept and no context moves),
/// flush (idempotent kernels only) loses the cycles run so far, switch costs its save plus
/// the restore later. When none meets the target, the fastest.
class Chimera final : public PreemptionPolicy {
public:
    explicit Chimera(const ChimeraParams& p) : m_target_us(p.latency_target_us) {}
    T choose(const CtaEstimate& e) const override { return chimera_choice(e, m_target_us); }

private:
    double m_target_us;
};

}  // namespace

core::PreemptTechnique chimera_choice(const CtaEstimate& e, double target_us) {
    const double target = target_us * e.cycles_per_us;
    struct Option {
        T t;
        uint64_t latency, overhead;
    };
    Option options[3] = {{T::Drain, e.drain_cycles, 0},
                         {T::Flush, PreemptionPolicy::latency(e, T::Flush), e.flush_cycles},
                         {T::Switch, e.switch_cycles, 2 * e.switch_cycles}};
    const Option* best = nullptr;
    for (const Option& o : options) {
        if (o.t == T::Flush && !e.idempotent) continue;
        if (static_cast<double>(o.latency) > target) continue;
        if (!best || o.overhead < best->overhead || (o.overhead == best->overhead && o.latency < best->latency))
            best = &o;
    }
    if (best) return best->t;
    for (const Option& o : options) {
        if (o.t == T::Flush && !e.idempotent) continue;
        if (!best || o.latency < best->latency) best = &o;
    }
    return best->t;
}

namespace {

const bool registered = preemption_policies().add_with<ChimeraParams>(
    "chimera", "per CTA the cheapest of drain, flush (idempotent) and switch whose estimated latency meets a target",
    [](const ChimeraParams& p) { return std::make_unique<Chimera>(p); });

}  // namespace

}  // namespace stacksim::sched
