// SPDX-License-Identifier: Apache-2.0
// What the DLL layer policy shows of itself beyond the generic LayerPolicy: its latency ring.
#pragma once
#include "noc/latency_ring.h"
#include "noc/layer_policy.h"

namespace stacksim::noc {

/// The latency ring of `policy` when it is the DLL policy, else null (the generic interface
/// carries no policy's own parts).
const LatencyRing* dll_ring(const LayerPolicy& policy);

}  // namespace stacksim::noc
