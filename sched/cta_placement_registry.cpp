// SPDX-License-Identifier: Apache-2.0
// The registry of CTA placement policies.
#include "sched/cta_placement.h"

namespace stacksim::sched {

CtaPlacementRegistry& cta_placements() {
    static CtaPlacementRegistry registry("CTA scheduler", "CTA schedulers: which SM the next waiting CTA goes to");
    return registry;
}

}  // namespace stacksim::sched
