// SPDX-License-Identifier: Apache-2.0
// CTA dispatch for every running kernel: priorities, SM sharing, reservations for preemption.
#pragma once
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <vector>

#include "core/cta_port.h"
#include "core/cta_status.h"
#include "core/kernel_launch.h"
#include "sched/cta_placement.h"
#include "sched/cta_queue.h"
#include "sched/sm_link.h"
#include "sim/message_port.h"

namespace stacksim::sched {

/// How running kernels share the SMs.
enum class SmSharing : uint8_t {
    Smk,      ///< any SM takes CTAs of any kernel its resources allow (higher priority first)
    Spatial,  ///< the SMs are split into disjoint sets, one per kernel with CTAs waiting; an SM
              ///< takes a kernel's CTAs only when it holds no other kernel's
};

/// Places the CTAs of the running kernels on SMs through a CtaPlacement policy whenever a
/// kernel starts or an SM gives up a CTA. Kernels are served by priority (larger first), then
/// in the order they started. An SM reserved for a kernel (by the preemption controller)
/// takes only that kernel's CTAs. It talks to each SM through an SmLink (sms()[i]->commands,
/// bound at assembly to that SM's CTA manager) and hears from the SMs as a sink of their
/// event ports; after handling an SM's event (and offering the freed room to the waiting CTAs)
/// it passes the event on through `events`, where it also reports KernelStarted.
class CtaDispatcher : public sim::MessageSink<core::CtaEvent> {
public:
    using Done = std::function<void(core::KernelLaunch&)>;

    /// `sms[i]`: the status of SM i (its CTA manager).
    CtaDispatcher(const std::vector<const core::CtaStatus*>& sms, std::unique_ptr<CtaPlacement> placement,
                  SmSharing sharing = SmSharing::Smk);

    /// Finished / Saved / Flushed (after the dispatcher handled them) and KernelStarted, for the
    /// preemption controller.
    core::CtaEventPort events;
    /// An SM's event: a finished CTA counts (the dispatcher keeps the kernel's CTA tallies:
    /// ctas_completed, cta_cycles, cta_instructions; the SMs' issue tallies are collected into
    /// the launch when its last CTA finished), a saved or flushed one waits again.
    void receive(core::CtaEvent& e) override;

    /// Starts placing the CTAs of `launch`; `on_done` runs when its last CTA has finished.
    void start(core::KernelLaunch& launch, Done on_done);

    /// Keeps SM `sm` for `kernel`'s CTAs (null: no reservation) and places CTAs at once.
    void reserve(uint32_t sm, const core::KernelLaunch* kernel);
    const core::KernelLaunch* reserved_for(uint32_t sm) const { return m_reserved[sm]; }
    /// Stops (`paused`) or resumes placing the waiting CTAs of running kernel `launch` (a kernel
    /// scheduler preempted it); its resident CTAs are left alone.
    void pause(const core::KernelLaunch& launch, bool paused);
    /// Places every waiting CTA that fits (also called by the preemption controller).
    void dispatch();

    bool idle() const { return m_running.empty(); }
    /// Kernels started and not finished, in service order (priority, then start).
    std::vector<const core::KernelLaunch*> running() const;
    /// The highest-priority running kernel, or null (progress line).
    const core::KernelLaunch* current() const { return m_running.empty() ? nullptr : &m_running.front().queue.launch(); }
    /// CTAs of `launch` waiting for an SM (0 if not running).
    uint64_t ctas_pending(const core::KernelLaunch& launch) const;
    /// `launch`'s issue-slot outcomes and warp instructions so far: while it runs, the sum of
    /// the SMs' parts; once it ended, what finish collected into the launch.
    core::KernelTally tally(const core::KernelLaunch& launch) const;
    /// CTAs finished since construction (the deadlock watchdog's progress measure).
    uint64_t ctas_completed() const { return m_completed_total; }
    /// The SMs, by id: status and command port.
    const std::vector<SmLink*>& sms() const { return m_sms; }

private:
    struct Running {
        explicit Running(core::KernelLaunch& l) : queue(l) {}
        CtaQueue queue;
        Done on_done;
        uint64_t completed = 0;
        uint64_t order = 0;
        bool finished = false;  ///< removed from m_running once no dispatch loop walks it
        bool paused = false;    ///< preempted by the kernel scheduler: no CTA is placed
    };
    Running* find(const core::KernelLaunch& launch);
    void cta_done(const core::CtaEvent& e);
    void cta_saved(core::KernelLaunch& launch, std::unique_ptr<core::SavedCta> saved);
    void cta_flushed(core::KernelLaunch& launch, uint64_t cta_index);
    void finish_if_done(Running& r);
    /// Adds the SMs' tallies of `launch` into it and has them dropped.
    void collect_tallies(core::KernelLaunch& launch);
    void remove_finished();
    /// The SMs kernel `r` may take CTAs on now.
    void allowed_sms(const Running& r, std::vector<SmLink*>& out) const;

    std::vector<std::unique_ptr<SmLink>> m_links;
    std::vector<SmLink*> m_sms;
    std::unique_ptr<CtaPlacement> m_placement;
    SmSharing m_sharing;
    std::list<Running> m_running;  ///< service order
    std::vector<const core::KernelLaunch*> m_reserved;
    std::vector<SmLink*> m_allowed;
    uint64_t m_completed_total = 0;
    uint64_t m_order = 0;
    size_t m_rr = 0;
    bool m_dispatching = false;
};

}  // namespace stacksim::sched
