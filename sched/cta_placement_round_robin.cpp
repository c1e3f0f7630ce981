// SPDX-License-Identifier: Apache-2.0
// Round-robin CTA placement (textbook fig 3-33).
#include "sched/cta_placement.h"

namespace stacksim::sched {

namespace {

/// One CTA per SM per pass, as many passes as resources allow; the cursor remembers where
/// the last pass stopped.
class RoundRobin final : public CtaPlacement {
public:
    void place(const std::vector<SmLink*>& sms, CtaQueue& q, size_t& cursor) override {
        const size_t n = sms.size();
        if (n == 0) return;
        cursor %= n;
        bool placed = true;
        while (placed && !q.empty()) {
            placed = false;
            for (size_t i = 0; i < n && !q.empty(); ++i) {
                SmLink* sm = sms[cursor];
                cursor = (cursor + 1) % n;
                if (sm->can_accept(q.launch())) {
                    q.start_next(*sm);
                    placed = true;
                }
            }
        }
    }
};

const bool registered =
    cta_placements().add("round_robin", "one CTA per SM per pass, as many passes as resources allow (default)",
                         [] { return std::make_unique<RoundRobin>(); });

}  // namespace

}  // namespace stacksim::sched
