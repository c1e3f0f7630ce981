// SPDX-License-Identifier: Apache-2.0
// Dimension-order layer split: coherence traffic on the upper layer, memory on the interposer.
#include "noc/layer_policy_base.h"

namespace stacksim::noc {

namespace {

class Dor final : public LayerPolicyBase {
public:
    using LayerPolicyBase::LayerPolicyBase;
    bool divert(unsigned, unsigned, uint64_t) override { return decide(false); }
};

const bool registered =
    layer_policies().add("dor", "coherence on the upper layer, memory traffic on the interposer",
                         [](const LayerPolicyEnv& e) { return std::make_unique<Dor>(e); });

}  // namespace

}  // namespace stacksim::noc
