// SPDX-License-Identifier: Apache-2.0
// Fill CTA placement: pack consecutive CTAs onto one SM before moving to the next.
#include "sched/cta_placement.h"

namespace stacksim::sched {

namespace {

/// Consecutive CTAs go to the same SM until it is full, then the next SM (neighbouring CTAs
/// share an L1, which helps kernels whose neighbours touch the same data). Always scans from
/// SM 0: the lowest-numbered SM with room fills first.
class Fill final : public CtaPlacement {
public:
    void place(const std::vector<core::CtaHost*>& sms, core::KernelLaunch& k, uint64_t& next_cta,
               size_t&) override {
        for (core::CtaHost* sm : sms) {
            if (next_cta >= k.num_ctas()) break;
            while (next_cta < k.num_ctas() && sm->can_accept(k)) sm->start_cta(k, next_cta++);
        }
    }
};

const bool registered =
    cta_placements().add("fill", "consecutive CTAs to the same SM until it is full, then the next SM",
                         [] { return std::make_unique<Fill>(); });

}  // namespace

}  // namespace stacksim::sched
