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
    void place(const std::vector<SmLink*>& sms, CtaQueue& q, size_t&) override {
        for (SmLink* sm : sms) {
            if (q.empty()) break;
            while (!q.empty() && sm->can_accept(q.launch())) q.start_next(*sm);
        }
    }
};

const bool registered =
    cta_placements().add("fill", "consecutive CTAs to the same SM until it is full, then the next SM",
                         [] { return std::make_unique<Fill>(); });

}  // namespace

}  // namespace stacksim::sched
