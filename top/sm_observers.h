// SPDX-License-Identifier: Apache-2.0
// Observers of SM events: a readable per-warp watch log, and a fan-out to several observers.
#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/sm_observer.h"

namespace stacksim::top {

/// A stall reason as words ("memory dependency"; Issued: "ready, another warp selected").
std::string stall_reason_text(uint8_t reason);

/// Prints every event of the watched warps ("sm0.w3" = warp slot 3 of SM 0) as one line.
class WatchLog : public core::SmObserver {
public:
    /// `specs` like "sm0.w3"; throws InputError naming a malformed one, or one outside the
    /// GPU's `num_sms` SMs and `warp_slots` warp slots per SM.
    WatchLog(const std::vector<std::string>& specs, uint32_t num_sms, uint32_t warp_slots);
    bool watches(uint32_t sm, uint32_t warp) const override { return m_watch.count({sm, warp}) != 0; }
    void on_event(const core::SmEvent& e) override;
    const std::string& text() const { return m_text; }

private:
    std::set<std::pair<uint32_t, uint32_t>> m_watch;
    std::string m_text;
};

/// Forwards events to several observers.
class ObserverFanout : public core::SmObserver {
public:
    void add(core::SmObserver* o) { m_list.push_back(o); }
    bool empty() const { return m_list.empty(); }
    bool watches(uint32_t sm, uint32_t warp) const override;
    void on_event(const core::SmEvent& e) override;
    void on_execute(const core::ExecutedInstruction& e) override;

private:
    std::vector<core::SmObserver*> m_list;
};

}  // namespace stacksim::top
