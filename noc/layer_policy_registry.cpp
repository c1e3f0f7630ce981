// SPDX-License-Identifier: Apache-2.0
// The registry of 2.5D layer policies.
#include "noc/layer_policy.h"

namespace stacksim::noc {

LayerPolicyRegistry& layer_policies() {
    static LayerPolicyRegistry r("layer policy", "2.5D layer policies: which layer of a stacked network a packet crosses");
    return r;
}

}  // namespace stacksim::noc
