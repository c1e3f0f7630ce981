// SPDX-License-Identifier: Apache-2.0
// Kernel queue and CTA dispatch to SMs (round robin, as many rounds as resources allow).
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "core/cta_host.h"
#include "core/kernel_launch.h"
#include "sched/cta_placement.h"

namespace stacksim::sched {

/// Runs launched kernels one after another (a single in-order stream) and hands their CTAs
/// to SMs through a CtaPlacement policy whenever a kernel starts or a CTA finishes.
class CtaDispatcher {
public:
    using Done = std::function<void(core::KernelLaunch&)>;

    CtaDispatcher(std::vector<core::CtaHost*> sms, std::unique_ptr<CtaPlacement> placement)
        : m_sms(std::move(sms)), m_placement(std::move(placement)) {}

    /// Queues `launch`; `on_done` runs when its last CTA has finished.
    void launch(core::KernelLaunch& launch, Done on_done);
    /// Called by an SM when one of its CTAs has finished.
    void cta_done(core::CtaHost& sm, core::KernelLaunch& launch);

    bool idle() const { return m_current == nullptr && m_queue.empty(); }
    const core::KernelLaunch* current() const { return m_current; }
    /// CTAs finished since construction (the deadlock watchdog's progress measure).
    uint64_t ctas_completed() const { return m_completed_total; }
    /// CTAs of the current kernel not yet dispatched.
    uint64_t ctas_pending() const { return m_current ? m_current->num_ctas() - m_next_cta : 0; }

private:
    struct Queued {
        core::KernelLaunch* launch;
        Done on_done;
    };
    void start_next();
    void dispatch();

    std::vector<core::CtaHost*> m_sms;
    std::unique_ptr<CtaPlacement> m_placement;
    std::deque<Queued> m_queue;
    core::KernelLaunch* m_current = nullptr;
    Done m_current_done;
    uint64_t m_next_cta = 0;
    uint64_t m_completed = 0;
    uint64_t m_completed_total = 0;
    size_t m_rr = 0;
};

}  // namespace stacksim::sched
