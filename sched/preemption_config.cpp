// SPDX-License-Identifier: Apache-2.0
// Configuration of the preemption controller ([preemption]).
#include "sched/preemption_config.h"

#include "sched/preemption_policy.h"

namespace stacksim::sched {

const sim::Params<PreemptionConfig>& PreemptionConfig::params() {
    using C = PreemptionConfig;
    static const auto p = [] {
        sim::Params<C> p;
        p.policy("policy", &C::policy, preemption_policies(),
                 "how the CTAs of the SMs taken for a higher-priority kernel leave them (docs/preemption.md)");
        p.add("max_sms", &C::max_sms, "SMs",
              "SMs freed for one preempting kernel; 0 = as many as its waiting CTAs can fill")
            .range(0, 1024);
        p.add("context_bandwidth_gbps", &C::context_bandwidth_gbps, "GB/s",
              "memory bandwidth the switch-time estimates divide among the SMs; 0 = the memory's peak")
            .range(0.0, 1e6);
        p.add("launch_signal_us", &C::launch_signal_us, "us",
              "PEP policies: time from a higher-priority kernel's launch call to the signal that reaches the controller")
            .range(0.0, 1e6);
        p.add("prediction_us", &C::prediction_us, "us",
              "PEP policies: predicted request time after the launch call (the thesis uses 20 and 30); a CTA whose "
              "estimated remaining time exceeds the time left to it takes a first checkpoint, the others drain")
            .range(0.0, 1e6);
        p.add("first_checkpoint", &C::first_checkpoint, "",
              "PEP policies: launch = first checkpoints when the launch call's signal reaches the SMs "
              "(launch_signal_us after the call, the thesis); prediction = at the predicted request (prediction_us)")
            .names({{"launch", FirstCheckpoint::Launch}, {"prediction", FirstCheckpoint::Prediction}});
        p.add("dirty_shared_memory", &C::dirty_shared_memory, "",
              "dirty-tracking policies: also track shared memory per 128-byte block and save only the blocks "
              "written; false (the thesis): dirty bits on registers only, shared memory saved whole");
        p.add("checkpoint_after", &C::checkpoint_after, "warp instructions",
              "PEP policies: a CTA that starts on an SM prepared for a request (in place of a drained one) takes its "
              "first checkpoint after this many instructions (thesis cases d and e)")
            .range(1, 1000000000);
        return p;
    }();
    return p;
}

}  // namespace stacksim::sched
