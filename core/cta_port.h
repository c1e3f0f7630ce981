// SPDX-License-Identifier: Apache-2.0
// The command/event messages between the CTA schedulers (sched/) and an SM's CTA manager.
#pragma once
#include <cstdint>
#include <memory>

#include "core/checkpoint.h"
#include "core/cta_status.h"
#include "core/kernel_launch.h"
#include "core/saved_cta.h"
#include "sim/message_port.h"

namespace stacksim::core {

/// What a command asks of the SM's CTA manager.
enum class CtaCommandKind : uint8_t {
    Start,              ///< start CTA `cta_index` of `launch`; precondition can_accept(launch)
    Restore,            ///< resume the context-switched CTA `saved` of `launch` (context read back first)
    Preempt,            ///< take CTA `slot` off by `technique` (Switch or Flush; Drain needs nothing)
    Checkpoint,         ///< PEP: stop CTA `slot` and save its dirty state (`order`)
    ArmCheckpoints,     ///< PEP: CTAs starting from now take a first checkpoint after `value` warp
                        ///< instructions (0 disarms); their counters are `order.counters`
    SetInplaceBudget,   ///< PEP+in-place: `value` bytes the next saves may keep in the SM
    TrackSharedStores,  ///< dirty tracking of shared-memory blocks on (`value` != 0) or off
    StopFetch,          ///< the whole SM stops fetching (its CTAs stay resident)
    Resume,             ///< the SM fetches again
    ForgetKernel,       ///< `launch` ended and its tallies were collected: drop this SM's part
};

/// One command. Fields beyond `kind` are read only by the kinds that name them.
struct CtaCommand {
    CtaCommandKind kind = CtaCommandKind::Start;
    KernelLaunch* launch = nullptr;
    uint64_t cta_index = 0;
    std::unique_ptr<SavedCta> saved;
    uint32_t slot = 0;
    PreemptTechnique technique = PreemptTechnique::Drain;
    CheckpointOrder order;
    uint64_t value = 0;

    static CtaCommand start(KernelLaunch& l, uint64_t index) {
        CtaCommand c;
        c.launch = &l;
        c.cta_index = index;
        return c;
    }
    static CtaCommand restore(KernelLaunch& l, std::unique_ptr<SavedCta> s) {
        CtaCommand c;
        c.kind = CtaCommandKind::Restore;
        c.launch = &l;
        c.saved = std::move(s);
        return c;
    }
    static CtaCommand preempt(uint32_t slot, PreemptTechnique t) {
        CtaCommand c;
        c.kind = CtaCommandKind::Preempt;
        c.slot = slot;
        c.technique = t;
        return c;
    }
    static CtaCommand checkpoint(uint32_t slot, const CheckpointOrder& o) {
        CtaCommand c;
        c.kind = CtaCommandKind::Checkpoint;
        c.slot = slot;
        c.order = o;
        return c;
    }
    static CtaCommand forget(const KernelLaunch& l) {
        CtaCommand c;
        c.kind = CtaCommandKind::ForgetKernel;
        c.launch = const_cast<KernelLaunch*>(&l);
        return c;
    }
    static CtaCommand set(CtaCommandKind k, uint64_t value, CheckpointCounters* counters = nullptr) {
        CtaCommand c;
        c.kind = k;
        c.value = value;
        c.order.counters = counters;
        return c;
    }
};

/// What an SM reports.
enum class CtaEventKind : uint8_t {
    Finished,      ///< CTA `cta_index` of `launch` ran to its end and released its resources
    Saved,         ///< it was context-switched out; `saved` holds all it needs to resume
    Flushed,       ///< it was dropped; it restarts from its beginning later
    Checkpointed,  ///< it took a first checkpoint and runs on
    KernelStarted, ///< (dispatcher to its listeners) `launch` started placing its CTAs
};

/// One event. `sm` names the SM (CTA events); `saved` is set for Saved only.
struct CtaEvent {
    CtaEventKind kind = CtaEventKind::Finished;
    uint32_t sm = 0;
    KernelLaunch* launch = nullptr;
    uint64_t cta_index = 0;
    std::unique_ptr<SavedCta> saved;
    uint64_t cycles = 0;        ///< Finished: the CTA's resident cycles (across switches)
    uint64_t instructions = 0;  ///< Finished: its warp instructions (across switches)
};

using CtaCommandPort = sim::MessagePort<CtaCommand>;
using CtaEventPort = sim::MessagePort<CtaEvent>;

}  // namespace stacksim::core
