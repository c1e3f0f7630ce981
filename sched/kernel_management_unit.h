// SPDX-License-Identifier: Apache-2.0
// The kernel management unit: pending-kernel pool and the distributor with its resident-kernel cap.
#pragma once
#include <cstdint>
#include <deque>
#include <vector>
#include <functional>

#include "core/kernel_launch.h"
#include "sched/cta_dispatcher.h"

namespace stacksim::sched {

/// Kernels arrive here when their launch has crossed from the host (after the launch latency,
/// in stream order). The distributor moves the best pending kernel (highest priority, then
/// earliest arrival) to the CTA dispatcher while fewer than `max_resident` kernels run
/// (Hyper-Q-like hardware queues).
class KernelManagementUnit {
public:
    using Done = CtaDispatcher::Done;
    using Started = std::function<void(core::KernelLaunch&)>;

    KernelManagementUnit(CtaDispatcher& dispatcher, uint32_t max_resident)
        : m_dispatcher(dispatcher), m_max(max_resident) {}

    /// A kernel arrived; `on_start` runs when the distributor hands it to the dispatcher,
    /// `on_done` when its last CTA has finished.
    void submit(core::KernelLaunch& launch, Started on_start, Done on_done);

    /// The host made a launch call for `launch` (it arrives after the launch latency);
    /// listeners (PEP's prediction) hear of it at the call.
    void launch_called(core::KernelLaunch& launch) {
        for (auto& f : m_call_listeners) f(launch);
    }
    void on_launch_call(Started f) { m_call_listeners.push_back(std::move(f)); }

    /// Kernels waiting in the pool.
    size_t pending() const { return m_pool.size(); }
    /// Kernels handed to the dispatcher and not finished.
    uint32_t resident() const { return m_resident; }
    bool idle() const { return m_pool.empty() && m_resident == 0; }
    uint32_t max_resident() const { return m_max; }

private:
    struct Pending {
        core::KernelLaunch* launch;
        Started on_start;
        Done on_done;
    };
    void distribute();

    CtaDispatcher& m_dispatcher;
    uint32_t m_max;
    uint32_t m_resident = 0;
    std::deque<Pending> m_pool;  ///< in arrival order
    std::vector<Started> m_call_listeners;
};

}  // namespace stacksim::sched
