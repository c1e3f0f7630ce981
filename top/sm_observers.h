// SPDX-License-Identifier: Apache-2.0
// Observers of SM events: a Chrome/Perfetto timeline and a readable per-warp watch log.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/sm_observer.h"
#include "host/host_program.h"
#include "sched/preemption_controller.h"

namespace stacksim::top {

/// Collects CTA lifetimes on every SM and, on the selected SMs, each warp's issued
/// instructions and stall intervals; writes Chrome trace JSON (opens in Perfetto and
/// chrome://tracing). Timestamps are core cycles (shown as microseconds by the viewers).
class TimelineObserver : public core::SmObserver {
public:
    explicit TimelineObserver(std::set<uint32_t> detailed_sms) : m_sms(std::move(detailed_sms)) {}
    bool watches(uint32_t sm, uint32_t) const override { return m_sms.count(sm) != 0; }
    void on_event(const core::SmEvent& e) override;
    /// The whole trace, with one row per kernel of `kernels` on a "GPU" process.
    /// Preemption requests get a row of their own (request to all chosen SMs free).
    nlohmann::json to_json(const std::vector<host::KernelRecord>& kernels, uint64_t end_cycle,
                           const std::vector<sched::PreemptionController::Record>& preemptions = {});

private:
    void close_stall(uint32_t sm, uint32_t warp, uint64_t cycle);
    void complete(const std::string& name, const char* cat, uint64_t start, uint64_t end, uint32_t pid,
                  uint32_t tid, nlohmann::json args = nullptr);

    std::set<uint32_t> m_sms;
    nlohmann::json m_events = nlohmann::json::array();
    std::map<std::pair<uint32_t, uint32_t>, std::pair<uint64_t, uint64_t>> m_cta_open;  ///< (sm, slot) -> (start, cta)
    std::map<std::pair<uint32_t, uint32_t>, std::pair<uint64_t, uint8_t>> m_stall_open;  ///< (sm, warp) -> (start, reason)
    std::set<uint32_t> m_seen_sms;
    std::set<std::pair<uint32_t, uint32_t>> m_seen_warps;
    std::set<std::pair<uint32_t, uint32_t>> m_cta_slots;  ///< (sm, CTA slot) that held a CTA
};

/// Prints every event of the watched warps ("sm0.w3" = warp slot 3 of SM 0) as one line.
class WatchLog : public core::SmObserver {
public:
    /// `specs` like "sm0.w3"; throws InputError naming a malformed one.
    explicit WatchLog(const std::vector<std::string>& specs);
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

private:
    std::vector<core::SmObserver*> m_list;
};

}  // namespace stacksim::top
