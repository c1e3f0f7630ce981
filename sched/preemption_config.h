// SPDX-License-Identifier: Apache-2.0
// Configuration of the preemption controller ([preemption]).
#pragma once
#include <cstdint>

#include "sim/param.h"
#include "sim/policy_catalog.h"

namespace stacksim::sched {

/// PEP: what triggers the first checkpoints.
enum class FirstCheckpoint : uint8_t {
    Launch,      ///< the launch call's signal reaching the SMs (thesis §4.5.2)
    Prediction,  ///< the predicted request time (an earlier reading of the thesis)
};

/// [preemption]: when a higher-priority kernel finds no room, which SMs are freed and how.
struct PreemptionConfig {
    sim::PolicySpec policy{"none"};     ///< selection policy (preemption_policies())
    uint32_t max_sms = 0;               ///< SMs freed per request; 0 = as many as the kernel can fill
    double context_bandwidth_gbps = 0;  ///< for switch estimates; 0 = the memory's peak bandwidth
    double launch_signal_us = 1.3;      ///< PEP: launch call -> the controller hears of it
    double prediction_us = 20;          ///< PEP: launch call -> predicted request (checkpoint or drain per CTA)
    FirstCheckpoint first_checkpoint = FirstCheckpoint::Launch;  ///< PEP: when first checkpoints are taken
    bool dirty_shared_memory = false;   ///< dirty-tracking policies: shared memory dirty per 128-byte block (else saved whole)
    uint64_t checkpoint_after = 1000;   ///< PEP: warp instructions of a CTA started after the prediction before its first checkpoint
    static const sim::Params<PreemptionConfig>& params();
};

}  // namespace stacksim::sched
