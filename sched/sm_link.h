// SPDX-License-Identifier: Apache-2.0
// The schedulers' link to one SM: its CTA status (read-only) and its command port.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "core/cta_port.h"
#include "core/cta_status.h"

namespace stacksim::sched {

/// One SM as the CTA dispatcher, its placement policies and the preemption controller see it:
/// what they may read (core::CtaStatus) and the port their commands go out on (bound at
/// assembly to the SM's CTA manager). Events come back on the SM's own event port.
class SmLink {
public:
    explicit SmLink(const core::CtaStatus& status) : m_status(status) {}
    SmLink(const SmLink&) = delete;
    SmLink& operator=(const SmLink&) = delete;

    /// Commands to the SM (core/cta_port.h); bind it to the SM's CTA manager.
    core::CtaCommandPort commands;
    void send(core::CtaCommand c) { commands.send(std::move(c)); }

    bool can_accept(const core::KernelLaunch& launch) const { return m_status.can_accept(launch); }
    bool only_runs(const core::KernelLaunch& launch) const { return m_status.only_runs(launch); }
    std::vector<core::ResidentCta> resident_ctas() const { return m_status.resident_ctas(); }
    uint32_t sm_id() const { return m_status.sm_id(); }
    core::KernelTally tally(const core::KernelLaunch& launch) const { return m_status.tally(launch); }

private:
    const core::CtaStatus& m_status;
};

}  // namespace stacksim::sched
