// SPDX-License-Identifier: Apache-2.0
// Interface of a warp-scheduling policy (implementations live in sched/).
#pragma once
#include <cstdint>
#include <vector>

namespace stacksim::core {

/// A warp as a scheduling policy sees it.
struct WarpRef {
    uint32_t slot;                ///< warp slot in the SM
    uint64_t age;                 ///< launch order on this SM (smaller = older)
    bool waiting_memory = false;  ///< a global load of this warp is outstanding
    bool at_barrier = false;      ///< waiting for the rest of its CTA at bar.sync
};

/// Orders one scheduler's warps each cycle; the SM issues the first ready warp in that order.
class WarpSchedulerPolicy {
public:
    virtual ~WarpSchedulerPolicy() = default;
    /// Fills `order` with the slots of `warps` (given oldest first) by priority.
    virtual void prioritize(const std::vector<WarpRef>& warps, std::vector<uint32_t>& order) = 0;
    /// The warp in `slot` issued an instruction this cycle; `long_latency` for global loads.
    virtual void on_issue(uint32_t slot, bool long_latency) = 0;
    /// The L1 saw `slot` miss on a line it had lost (its victim tags hit).
    virtual void on_lost_locality(uint32_t slot) { (void)slot; }
    /// True when prioritize() is a function of its input and of what on_issue() and
    /// on_lost_locality() changed (calling it twice with the same warps gives the same order):
    /// the SM then skips a stalled scheduler's scan while none of its warps changed. False
    /// (the default) for a policy whose order moves with every call, such as decaying scores.
    virtual bool order_stable() const { return false; }
    /// False when the last prioritize() left `slot` out of the order on purpose (a two-level
    /// scheduler's pending warp): a ready warp left out is "pending", not "another warp selected".
    virtual bool considers(uint32_t slot) const {
        (void)slot;
        return true;
    }
};

}  // namespace stacksim::core
