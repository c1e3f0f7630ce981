// SPDX-License-Identifier: Apache-2.0
// What the CTA manager may ask of an SM's pipeline (and nothing more).
#pragma once
#include <cstdint>

#include "core/warp.h"
#include "sim/mem_extension.h"

namespace stacksim::core {

/// The SM's pipeline as its CTA manager (core/cta_manager.h) sees it: warp slots whose
/// architectural state it writes when a CTA starts or resumes and reads when it is saved, the
/// scheduler lists warps join and leave, fetch stop and drain checks for a CTA, and context
/// lines sent through the SM's memory path. Everything else (fetch, issue, scoreboard,
/// operand collector, execution, LD/ST) stays behind it.
class SmPipeline {
public:
    virtual ~SmPipeline() = default;
    /// Warp slots of the SM.
    virtual uint32_t warp_slots() const = 0;
    /// A warp slot's state (architectural: registers, SIMT stack, PC; and per-warp progress).
    virtual Warp& warp(uint32_t slot) = 0;
    virtual const Warp& warp(uint32_t slot) const = 0;
    /// Warp `slot` (set up by the caller) joins its scheduler's list.
    virtual void attach_warp(uint32_t slot) = 0;
    /// Warp `slot` leaves its scheduler's list and its slot is freed (queued writebacks for it
    /// are ignored).
    virtual void detach_warp(uint32_t slot) = 0;
    /// Warp `slot` ran out of instructions at once (a traced warp with none): it finishes.
    virtual void finish_warp(uint32_t slot) = 0;
    /// The whole SM stops (true) or resumes (false) fetching; its CTAs stay resident.
    virtual void stop_fetch(bool stop) = 0;
    /// The warps of CTA slot `cta` stop fetching (their I-buffers are emptied).
    virtual void stop_cta_fetch(uint32_t cta) = 0;
    /// Whether no warp of CTA slot `cta` has a memory request in flight (with `registers`:
    /// and no register result pending either).
    virtual bool drained(uint32_t cta, bool registers) const = 0;
    /// Queues the context lines of `bytes` at `addr` for CTA slot `cta` on the memory path;
    /// each response comes back as CtaManager::context_response(cta). Returns the line count.
    virtual uint64_t queue_context(uint32_t cta, uint64_t addr, uint64_t bytes, sim::MemAccess access) = 0;
    /// Something moved this cycle (the SM ticks again next cycle).
    virtual void note_progress() = 0;
    /// The SM is ticked from the next edge on.
    virtual void wake() = 0;
};

}  // namespace stacksim::core
