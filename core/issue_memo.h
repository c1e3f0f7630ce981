// SPDX-License-Identifier: Apache-2.0
// Per-scheduler memo of a scan that issued nothing, so an unchanged scheduler is not rescanned.
#pragma once
#include <cstdint>
#include <vector>

#include "core/issue_outcome.h"

namespace stacksim::core {

struct CtaSlot;

/// Two memos of the SM's issue scan, both valid only while nothing they depend on changed.
///
/// Per scheduler: what one warp scheduler's last scan found when it issued nothing: the stall outcome charged,
/// the CTA charged, and the first cycle at which a timed condition of that scan changes
/// (an I-buffer entry ready, a pipe or collector unit free). The SM reuses it instead of
/// scanning again while the cycle is earlier than that, the CTA manager's epoch is the same and
/// no event touched one of the scheduler's warps (scoreboard release, I-buffer fill, barrier
/// release, a warp joining or leaving, a response that lifts the memory throttle). Another
/// scheduler's issue only makes shared units busier, which cannot turn a stall into an issue.
///
/// Per warp: why the warp could not issue when that depends on the warp alone (finished or its
/// CTA not running, an empty or not yet ready I-buffer, a barrier, a scoreboard hazard), reused
/// in later scans under the same rules. Results are identical to checking every warp every
/// cycle; only host time changes.
class IssueMemo {
public:
    struct Entry {
        bool valid = false;
        IssueOutcome outcome = IssueOutcome::Idle;
        const CtaSlot* charged = nullptr;  ///< CTA whose kernel the slot is charged to
        uint64_t until = 0;                ///< first cycle at which the scan may differ
        uint64_t epoch = 0;                ///< CtaManager::epoch() when recorded
    };

    struct WarpEntry {
        bool valid = false;
        bool has_instruction = false;  ///< an instruction was at the I-buffer's head
        IssueOutcome outcome = IssueOutcome::Idle;
        uint64_t until = 0;            ///< first cycle at which the check may differ
        uint64_t epoch = 0;
    };

    /// One entry per scheduler and per warp slot, all invalid.
    void resize(uint32_t schedulers, uint32_t warps) {
        m_entries.assign(schedulers, Entry{});
        m_warps.assign(warps, WarpEntry{});
    }
    /// Warp `slot`, of scheduler `s`, changed: both must be checked again.
    void touch(uint32_t slot, uint32_t s) {
        m_warps[slot].valid = false;
        m_entries[s].valid = false;
    }
    /// Scheduler `s` must scan again (it issued).
    void invalidate(uint32_t s) { m_entries[s].valid = false; }
    /// Every scheduler must scan again (a shared condition such as the memory throttle lifted).
    void invalidate_all() {
        for (Entry& e : m_entries) e.valid = false;
    }
    /// The memo of warp `slot` if it still holds at `cycle` with CTA-manager epoch `epoch`.
    const WarpEntry* warp(uint32_t slot, uint64_t cycle, uint64_t epoch) const {
        const WarpEntry& e = m_warps[slot];
        return e.valid && cycle < e.until && e.epoch == epoch ? &e : nullptr;
    }
    /// Warp `slot` cannot issue, for a reason of its own (see the class comment), until `until`.
    void record_warp(uint32_t slot, IssueOutcome outcome, bool has_instruction, uint64_t until, uint64_t epoch) {
        m_warps[slot] = WarpEntry{true, has_instruction, outcome, until, epoch};
    }
    /// The memo of scheduler `s` if it still holds at `cycle` with CTA-manager epoch `epoch`.
    const Entry* reusable(uint32_t s, uint64_t cycle, uint64_t epoch) const {
        const Entry& e = m_entries[s];
        return e.valid && cycle < e.until && e.epoch == epoch ? &e : nullptr;
    }
    /// Scheduler `s` scanned and stalled with `outcome` charged to `charged`; the scan holds
    /// until cycle `until` (~0: until an event).
    void record(uint32_t s, IssueOutcome outcome, const CtaSlot* charged, uint64_t until, uint64_t epoch) {
        m_entries[s] = Entry{true, outcome, charged, until, epoch};
    }

private:
    std::vector<Entry> m_entries;
    std::vector<WarpEntry> m_warps;
};

}  // namespace stacksim::core
