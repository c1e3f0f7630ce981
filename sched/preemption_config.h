// SPDX-License-Identifier: Apache-2.0
// Configuration of the preemption controller ([preemption]).
#pragma once
#include <cstdint>

#include "sim/param.h"
#include "sim/policy_catalog.h"

namespace stacksim::sched {

/// [preemption]: when a higher-priority kernel finds no room, which SMs are freed and how.
struct PreemptionConfig {
    sim::PolicySpec policy{"none"};     ///< selection policy (preemption_policies())
    uint32_t max_sms = 0;               ///< SMs freed per request; 0 = as many as the kernel can fill
    double context_bandwidth_gbps = 0;  ///< for switch estimates; 0 = the memory's peak bandwidth
    double launch_signal_us = 1.3;      ///< PEP: launch call -> the controller hears of it
    double prediction_us = 20;          ///< PEP: launch call -> predicted request (first checkpoints)
    uint64_t checkpoint_after = 1000;   ///< PEP: warp instructions of a CTA started after the prediction before its first checkpoint
    static const sim::Params<PreemptionConfig>& params();
};

}  // namespace stacksim::sched
