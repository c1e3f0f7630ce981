// SPDX-License-Identifier: Apache-2.0
// The CTAs of one kernel waiting for an SM: context-switched ones, flushed ones, then fresh ones.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>

#include "core/kernel_launch.h"
#include "core/saved_cta.h"
#include "sched/sm_link.h"

namespace stacksim::sched {

/// What a placement policy hands out. Context-switched CTAs resume first (newest save first,
/// so the most recent checkpoint is restored first), then flushed CTAs restart, then the
/// kernel's CTAs not yet started go in index order.
class CtaQueue {
public:
    explicit CtaQueue(core::KernelLaunch& launch) : m_launch(launch) {}

    core::KernelLaunch& launch() const { return m_launch; }
    bool empty() const { return m_saved.empty() && m_flushed.empty() && m_next >= m_launch.num_ctas(); }
    /// CTAs waiting.
    uint64_t pending() const { return m_saved.size() + m_flushed.size() + (m_launch.num_ctas() - m_next); }
    /// Starts (or resumes) the next waiting CTA on `sm` (a Start or Restore command);
    /// precondition !empty() and sm.can_accept(launch()).
    void start_next(SmLink& sm);
    /// A CTA came off an SM by a context switch.
    void push_saved(std::unique_ptr<core::SavedCta> saved) { m_saved.push_front(std::move(saved)); }
    /// A CTA was flushed: it restarts from its beginning.
    void push_flushed(uint64_t cta_index) { m_flushed.push_back(cta_index); }

private:
    core::KernelLaunch& m_launch;
    std::deque<std::unique_ptr<core::SavedCta>> m_saved;
    std::deque<uint64_t> m_flushed;
    uint64_t m_next = 0;
};

}  // namespace stacksim::sched
