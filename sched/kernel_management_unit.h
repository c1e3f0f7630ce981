// SPDX-License-Identifier: Apache-2.0
// The kernel management unit: pending-kernel pool and the distributor with its resident-kernel cap.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "core/kernel_launch.h"
#include "sched/cta_dispatcher.h"
#include "sched/kernel_event.h"
#include "sched/kernel_scheduler.h"

namespace stacksim::sched {

/// Kernels arrive here when their launch has crossed from the host (after the launch latency,
/// in stream order). The distributor asks its kernel-scheduling policy (FCFS by default: the
/// highest priority, then earliest arrival, while fewer than `max_resident` kernels run —
/// Hyper-Q-like hardware queues) which pending kernel to hand to the CTA dispatcher. A policy
/// may also preempt a running kernel: its CTAs stop being placed, it goes back to the pool as a
/// preempted kernel and a Preempted event on `events` (heard by the preemption controller) frees
/// SMs for the newcomer.
class KernelManagementUnit {
public:
    using Done = CtaDispatcher::Done;
    using Started = std::function<void(core::KernelLaunch&)>;

    /// `policy`: null = FCFS.
    KernelManagementUnit(CtaDispatcher& dispatcher, uint32_t max_resident,
                         std::unique_ptr<KernelScheduler> policy = nullptr);

    /// A kernel arrived; `on_start` runs when the distributor hands it to the dispatcher,
    /// `on_done` when its last CTA has finished.
    void submit(core::KernelLaunch& launch, Started on_start, Done on_done);

    /// LaunchCalled at the host's launch call (PEP's prediction listens); Preempted when the
    /// policy preempts a running kernel for one it has just started.
    KernelEventPort events;

    /// The host made a launch call for `launch` (it arrives after the launch latency).
    void launch_called(core::KernelLaunch& launch) { events.send({KernelEventKind::LaunchCalled, &launch, nullptr}); }

    /// Kernels waiting in the pool (new and preempted).
    size_t pending() const { return m_pool.size(); }
    /// Kernels handed to the dispatcher and not finished (preempted ones included).
    uint32_t resident() const { return m_resident; }
    bool idle() const { return m_pool.empty() && m_resident == 0; }
    uint32_t max_resident() const { return m_max; }
    /// Whether its kernel-scheduling policy decides preemptions (KernelScheduler).
    bool policy_decides_preemptions() const { return m_policy->decides_preemptions(); }
    /// The preemptions the policy decided and the better pairs it declined (gain <= cost).
    KernelScheduler::Tally decisions() const { return m_policy->tally(); }

private:
    struct Pending {
        core::KernelLaunch* launch;
        Started on_start;
        Done on_done;
        bool preempted = false;
        uint64_t arrival = 0;
    };
    void distribute();
    void run(Pending p);
    void finished(core::KernelLaunch& l, const Done& done);

    CtaDispatcher& m_dispatcher;
    uint32_t m_max;
    std::unique_ptr<KernelScheduler> m_policy;
    uint32_t m_resident = 0;
    uint64_t m_arrivals = 0;
    std::deque<Pending> m_pool;                   ///< in arrival order
    std::vector<core::KernelLaunch*> m_running;   ///< started, not preempted, in start order
    std::map<const core::KernelLaunch*, uint64_t> m_arrival;
    std::vector<KernelScheduler::Pending> m_view;
};

}  // namespace stacksim::sched
