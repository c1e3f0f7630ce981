// SPDX-License-Identifier: Apache-2.0
// ETC's memory-aware SM throttling: which SMs fetch, adjusted by detection/execution epochs.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "memory/etc_config.h"

namespace stacksim::memory {

/// Plain state machine (no SystemC); times are core cycles. trigger() stops fetch on the upper
/// half of the busy SMs. Dynamic throttling then alternates epochs:
///   detection: ends at the first far fault or after detection_cycles.
///     timeout (no fault)           -> release `step` SMs, the last stopped first;
///     fault, no eviction meanwhile -> keep;
///     fault, >= 1 eviction         -> stop `step` SMs, the faulting SM first;
///   execution: execution_cycles without adjustment, then detection again.
/// At least one SM always fetches. Static throttling stops the half and never adjusts.
class SmThrottle {
public:
    /// `set_stopped(sm, stop)` is called for every change.
    SmThrottle(uint32_t sms, Throttling kind, uint32_t step, uint64_t detection_cycles, uint64_t execution_cycles,
               std::function<void(uint32_t sm, bool stop)> set_stopped);
    /// Starts throttling at `now` (no effect if already started or kind is None): stops the
    /// upper half of `busy` (the SMs with work; all SMs if empty).
    void trigger(uint64_t now, const std::vector<uint32_t>& busy = {});
    /// Which SMs have work (CTAs resident); without it every SM counts as busy. A fault with
    /// evictions that stops SMs besides the faulting one (step > 1) stops busy ones only: an
    /// idle SM holds no working set, and stopping it would throttle nothing and make the next
    /// release a no-op. A faulting SM that is already stopped counts as stopped by the rule.
    void set_busy(std::function<bool(uint32_t sm)> busy) { m_busy = std::move(busy); }
    /// A far fault raised by SM `sm`; `evictions` is the GMMU's cumulative evicted-page count.
    void on_fault(uint32_t sm, uint64_t now, uint64_t evictions);
    /// Ends epochs due by `now`. `running_idle`: no SM that fetches has work (then `step`
    /// stopped SMs are released at once: throttling must not leave the GPU idle).
    /// `faults_pending`: far faults raised earlier are still being served. A detection epoch
    /// that times out then keeps the SMs as they are: warps waiting for their pages raise no
    /// new fault, so the quiet epoch does not show that the working set fits.
    void advance(uint64_t now, uint64_t evictions, bool running_idle, bool faults_pending = false);
    /// Next cycle advance() has something to do, or UINT64_MAX.
    uint64_t next_deadline() const;
    bool started() const { return m_started; }
    uint32_t stopped_count() const { return static_cast<uint32_t>(m_stack.size()); }
    bool is_stopped(uint32_t sm) const { return m_stopped[sm]; }
    uint64_t stops() const { return m_stops; }
    uint64_t releases() const { return m_releases; }
    uint64_t max_stopped() const { return m_max_stopped; }
    /// Cycles SM `sm` spent stopped up to `now`.
    uint64_t stopped_cycles(uint32_t sm, uint64_t now) const {
        return m_stopped_cycles[sm] + (m_stopped[sm] ? now - m_since[sm] : 0);
    }

private:
    enum class Epoch { Detection, Execution };
    void stop(uint32_t sm, uint64_t now);
    void release(uint32_t n, uint64_t now);
    void begin_execution(uint64_t now);

    uint32_t m_sms;
    Throttling m_kind;
    uint32_t m_step;
    uint64_t m_detection, m_execution;
    std::function<void(uint32_t, bool)> m_set;
    std::function<bool(uint32_t)> m_busy;  ///< empty: every SM busy
    std::vector<bool> m_stopped;
    std::vector<uint64_t> m_since, m_stopped_cycles;
    std::vector<uint32_t> m_stack;  ///< stopped SMs, last stopped at the back
    bool m_started = false;
    Epoch m_epoch = Epoch::Execution;
    uint64_t m_epoch_end = 0;
    uint64_t m_epoch_evictions = 0;  ///< GMMU evictions when the detection epoch began
    uint64_t m_stops = 0, m_releases = 0, m_max_stopped = 0;
};

}  // namespace stacksim::memory
