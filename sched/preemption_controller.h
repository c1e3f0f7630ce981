// SPDX-License-Identifier: Apache-2.0
// The preemption controller: frees SMs for a higher-priority kernel, CTA by CTA, by policy.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "core/sm_config.h"
#include "sched/cta_dispatcher.h"
#include "sched/kernel_event.h"
#include "sched/preemption_config.h"
#include "sched/preemption_policy.h"
#include "sim/message_port.h"
#include "sim/clock_domain.h"
#include "sim/stats.h"

namespace stacksim::sched {

/// Listens to the CTA dispatcher's events (bind dispatcher.events to it). When a kernel starts and CTAs of it still wait while SMs run
/// only lower-priority CTAs (or on request()), it picks the SMs to free: the candidates with the
/// lowest estimated preemption latency, as many as the kernel's waiting CTAs can fill
/// (max_sms caps it). It reserves them for the kernel (no other CTA starts there), asks the
/// policy for a technique per resident CTA (drain, switch, flush) and applies it. A request
/// ends when none of its SMs holds a CTA of another kernel; reservations are dropped once
/// the kernel has no CTA waiting and the SM is free: it counts the other kernels' CTAs on each
/// chosen SM when it chooses it and the Finished / Saved / Flushed events that take them off.
/// Its orders go to the SMs as commands (core/cta_port.h) through the dispatcher's SM links.
/// Decisions happen in the delta cycle after the trigger, so they never run inside a dispatch.
class PreemptionController : public sc_core::sc_module,
                             public sim::MessageSink<core::CtaEvent>,
                             public sim::MessageSink<KernelEvent> {
public:
    SC_HAS_PROCESS(PreemptionController);
    /// `memory_gbps`: bandwidth the switch estimate shares among the SMs (GB/s).
    PreemptionController(sc_core::sc_module_name name, CtaDispatcher& dispatcher, const core::SmConfig& sm,
                         sim::ClockDomain& clock, double core_mhz, double memory_gbps, const PreemptionConfig& cfg,
                         sim::StatRegistry& stats);

    /// API call: free SMs for `kernel` now, whatever the priorities and even if the policy
    /// would not (the policy "none" then drains). `kernel` must be running. `victim` (a kernel
    /// scheduler's preemption): only SMs whose CTAs all belong to `victim` are taken.
    void request(core::KernelLaunch& kernel, const core::KernelLaunch* victim = nullptr);

    /// The dispatcher's events: KernelStarted may trigger a request; a CTA leaving an SM may
    /// end one.
    void receive(core::CtaEvent& e) override;
    /// The kernel management unit's events: a launch call (PEP's prediction) or a kernel
    /// scheduler's preemption (request() with the victim).
    void receive(KernelEvent& e) override;

    /// False: a kernel that starts no longer triggers a request by priority; SMs are taken only
    /// on request() (a kernel scheduler that decides preemptions itself).
    void set_priority_preemption(bool on) { m_priority_preemption = on; }

    /// The host made a launch call for `kernel`. PEP policies hear of it after launch_signal_us
    /// and take first checkpoints then (preemption.first_checkpoint = launch) of the CTAs expected
    /// to outlast the predicted request, prediction_us after the call; with `prediction` they
    /// wait for the predicted request (sched/preemption_prediction.cpp).
    void launch_called(core::KernelLaunch& kernel);

    /// One preemption request, for the timeline and reports (core cycles).
    struct Record {
        std::string kernel;
        uint64_t request_cycle = 0;
        uint64_t done_cycle = 0;  ///< all chosen SMs free (when done)
        bool done = false;
        uint32_t sms = 0;
        uint32_t drained = 0, switched = 0, flushed = 0;
    };
    const std::vector<Record>& records() const { return m_records; }

private:
    struct Active {
        core::KernelLaunch* kernel;
        size_t record;
        std::vector<uint32_t> sms;  ///< chosen SMs
        std::vector<bool> free;
        std::vector<uint32_t> others;  ///< per chosen SM: CTAs of other kernels still on it
        bool open = true;
    };
    void process();
    void predict();
    void prepare(core::KernelLaunch& kernel, uint64_t predicted_ps);
    void register_pep_stats(sim::StatRegistry& stats);
    /// SMs whose CTAs all belong to kernels of lower priority than `kernel` (not reserved).
    /// Forced (request()): any SM without CTAs of `kernel`, or only with CTAs of `victim` if set.
    std::vector<uint32_t> candidates(const core::KernelLaunch& kernel, bool forced,
                                     const core::KernelLaunch* victim) const;
    uint32_t count_case(const core::ResidentCta& r, core::PreemptTechnique t);
    void handle(core::KernelLaunch& kernel, bool forced, const core::KernelLaunch* victim);
    void on_cta_left(const core::CtaEvent& e);
    void update(Active& a);
    bool kernel_running(const core::KernelLaunch& k) const;
    CtaEstimate estimate(const core::ResidentCta& c, uint64_t sm_context_bytes, uint32_t sms_sharing) const;
    uint32_t sms_wanted(const core::KernelLaunch& k) const;

    CtaDispatcher& m_dispatcher;
    core::SmConfig m_sm;
    sim::ClockDomain& m_clock;
    double m_cycles_per_us;
    double m_bytes_per_cycle;  ///< memory bandwidth in bytes per core cycle
    PreemptionConfig m_cfg;
    std::unique_ptr<PreemptionPolicy> m_policy;
    std::vector<core::KernelLaunch*> m_triggers;
    std::vector<bool> m_forced;
    std::vector<const core::KernelLaunch*> m_victims;
    bool m_priority_preemption = true;
    sc_core::sc_event m_wake;
    std::vector<Active> m_active;
    std::vector<Record> m_records;

    sim::Counter m_requests, m_sms_freed, m_drained, m_switched, m_flushed;
    // PEP.
    struct Prediction {
        uint64_t due_ps;        ///< when the controller prepares the SMs (first checkpoints)
        uint64_t predicted_ps;  ///< the predicted request
        core::KernelLaunch* kernel;
    };
    std::vector<Prediction> m_predictions;
    sc_core::sc_event_queue m_predict_q;
    std::vector<std::pair<core::KernelLaunch*, std::vector<uint32_t>>> m_prepared;  ///< SMs with first checkpoints
    core::CheckpointCounters m_ckpt;
    std::array<sim::Counter, 5> m_cases;  ///< thesis cases a-e
    sim::Counter m_predictions_made;
    sim::Average m_latency;
};

}  // namespace stacksim::sched
