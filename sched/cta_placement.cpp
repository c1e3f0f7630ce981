// SPDX-License-Identifier: Apache-2.0
// CTA placement policies (round robin, fill) and their registry.
#include "sched/cta_placement.h"

namespace stacksim::sched {

void RoundRobinPlacement::place(const std::vector<core::CtaHost*>& sms, core::KernelLaunch& k,
                                uint64_t& next_cta, size_t& cursor) {
    const size_t n = sms.size();
    bool placed = true;
    while (placed && next_cta < k.num_ctas()) {
        placed = false;
        for (size_t i = 0; i < n && next_cta < k.num_ctas(); ++i) {
            core::CtaHost* sm = sms[cursor];
            cursor = (cursor + 1) % n;
            if (sm->can_accept(k)) {
                sm->start_cta(k, next_cta++);
                placed = true;
            }
        }
    }
}

void FillPlacement::place(const std::vector<core::CtaHost*>& sms, core::KernelLaunch& k, uint64_t& next_cta,
                          size_t& cursor) {
    const size_t n = sms.size();
    for (size_t i = 0; i < n && next_cta < k.num_ctas(); ++i) {
        core::CtaHost* sm = sms[(cursor + i) % n];
        while (next_cta < k.num_ctas() && sm->can_accept(k)) sm->start_cta(k, next_cta++);
    }
    (void)cursor;  // always scans from SM 0: the lowest-numbered SM with room fills first
}

const CtaPlacementRegistry& cta_scheduler_registry() {
    static const CtaPlacementRegistry registry = [] {
        CtaPlacementRegistry r("CTA scheduler");
        r.add("round_robin", "one CTA per SM per pass, as many passes as resources allow (default)",
              [] { return std::make_unique<RoundRobinPlacement>(); });
        r.add("fill", "consecutive CTAs to the same SM until it is full, then the next SM",
              [] { return std::make_unique<FillPlacement>(); });
        return r;
    }();
    return registry;
}

}  // namespace stacksim::sched
