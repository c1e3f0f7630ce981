// SPDX-License-Identifier: Apache-2.0
// ETC (thesis chapter 3) on the GPU: classifier samples, policy engine, SM throttling by command.
#pragma once
#include <cstdint>
#include <memory>
#include <set>
#include <vector>

#include <systemc>

#include "core/cta_port.h"
#include "core/kernel_launch.h"
#include "core/sm_activity.h"
#include "memory/app_classifier.h"
#include "memory/etc_config.h"
#include "memory/gmmu.h"
#include "memory/sharing_detector.h"
#include "memory/sm_throttle.h"
#include "sim/clock_domain.h"
#include "sim/stats.h"

namespace stacksim::uvm {

/// One timed event every sample_cycles (or sooner, at a throttling epoch's end) samples the
/// SMs' coalescing counters; the first sample with memory instructions decides the class, and
/// the policy engine then switches on its techniques (proactive eviction in the GMMU; SM
/// throttling if GPU memory is oversubscribed). The timer stops while nothing moves (no
/// instruction issued, nothing held by the GMMU, no SM stopped) and restarts on a far fault or
/// a finished CTA, so an idle or deadlocked GPU stays recognisable. It reads the SMs through
/// core::SmActivity and stops or resumes their fetch by commands on their CTA managers' ports.
/// Stats under `gpu.etc`.
class EtcController : public sc_core::sc_module, public sim::MessageSink<core::CtaEvent> {
public:
    SC_HAS_PROCESS(EtcController);
    /// `sms[i]`: what it reads of SM i; its orders to SM i go out on commands(i).
    EtcController(sc_core::sc_module_name name, const memory::EtcConfig& cfg,
                  std::vector<const core::SmActivity*> sms, memory::Gmmu& gmmu, sim::ClockDomain& clock,
                  sim::StatRegistry& stats);
    /// StopFetch / Resume to SM `sm`; bind it to that SM's CTA manager.
    core::CtaCommandPort& commands(uint32_t sm) { return m_commands.at(sm); }
    /// A CTA of `launch` finished: pointer arguments feed the sharing detector; restarts the timer.
    void on_cta_done(const core::KernelLaunch& launch);
    /// An SM's CTA event (bound to each SM's CTA manager): a finished CTA calls on_cta_done().
    void receive(core::CtaEvent& e) override {
        if (e.kind == core::CtaEventKind::Finished) on_cta_done(*e.launch);
    }
    memory::AppClass app_class() const;
    const memory::EtcTechniques& techniques() const { return m_tech; }
    const memory::SmThrottle& throttle() const { return *m_throttle; }

private:
    void wake();
    void arm();
    void apply_techniques(uint64_t now);
    void on_fault(uint32_t sm);
    bool sharing() const;
    void stop_fetch(uint32_t sm, bool stop);
    void make_throttle(memory::Throttling mode);

    memory::EtcConfig m_cfg;
    std::vector<const core::SmActivity*> m_sms;
    std::vector<core::CtaCommandPort> m_commands;
    memory::Gmmu& m_gmmu;
    sim::ClockDomain& m_clock;
    memory::AppClassifier m_classifier;
    memory::SharingDetector m_sharing;
    std::unique_ptr<memory::SmThrottle> m_throttle;
    memory::EtcTechniques m_tech;
    memory::AppClass m_applied = memory::AppClass::Unknown;  ///< the class m_tech was chosen for (auto mode)
    std::set<uint32_t> m_seen_launches;
    std::vector<uint64_t> m_insts, m_lines;
    uint64_t m_next_sample = 0;
    uint64_t m_last_instructions = 0;
    bool m_armed = false;
    sc_core::sc_event m_event;
};

}  // namespace stacksim::uvm
