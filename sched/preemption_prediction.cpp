// SPDX-License-Identifier: Apache-2.0
// The preemption controller's PEP part: launch-triggered prediction and first checkpoints.
#include <algorithm>
#include <cmath>

#include "core/occupancy.h"
#include "sched/preemption_controller.h"

namespace stacksim::sched {

std::vector<uint32_t> PreemptionController::candidates(const core::KernelLaunch& kernel, bool forced,
                                                        const core::KernelLaunch* victim) const {
    std::vector<uint32_t> out;
    const auto& sms = m_dispatcher.sms();
    for (uint32_t s = 0; s < sms.size(); ++s) {
        if (m_dispatcher.reserved_for(s)) continue;
        // Some CTA must be there: an empty unreserved SM would already have taken the kernel's CTAs.
        const std::vector<core::ResidentCta> ctas = sms[s]->resident_ctas();
        bool ok = !ctas.empty();
        for (auto& c : ctas) {
            if (c.launch == &kernel) ok = false;
            else if (!forced && c.launch->priority >= kernel.priority) ok = false;
            else if (forced && victim && c.launch != victim) ok = false;
        }
        if (ok) out.push_back(s);
    }
    return out;
}

uint32_t PreemptionController::count_case(const core::ResidentCta& r, core::PreemptTechnique t) {
    if (t == core::PreemptTechnique::Drain) return 2;                   // (c) drain
    if (r.checkpoints > 0) return r.armed_start ? 4 : 0;                // (e) / (a) two checkpoints
    return r.armed_start ? 3 : 1;                                       // (d) / (b) one
}

void PreemptionController::register_pep_stats(sim::StatRegistry& stats) {
    sim::StatGroup g(stats, std::string(name()) + ".pep");
    g.add("predictions", m_predictions_made,
          "launch calls that prepared SMs (first checkpoints) before their kernel started", "kernels");
    g.add("first_checkpoints", m_ckpt.first, "first (proactive) checkpoints", "CTAs");
    g.add("second_checkpoints", m_ckpt.second, "saves at the request of CTAs holding a first checkpoint", "CTAs");
    g.add("single_checkpoints", m_ckpt.single, "saves at the request of CTAs without a first checkpoint", "CTAs");
    g.add("first_bytes", m_ckpt.first_bytes, "bytes of first checkpoints", "bytes");
    g.add("request_bytes", m_ckpt.second_bytes, "bytes of the saves at the request (dirty only)", "bytes");
    g.add("request_full_bytes", m_ckpt.full_bytes, "what the saves at the request would be without dirty tracking",
          "bytes");
    g.add("dram_bytes", m_ckpt.dram_bytes, "checkpoint bytes written to the context area", "bytes");
    g.add("inplace_bytes", m_ckpt.inplace_bytes, "checkpoint bytes kept in unused registers / shared memory", "bytes");
    g.add("restore_bytes", m_ckpt.restore_bytes, "checkpoint bytes read back on restore", "bytes");
    g.add("first_cycles", m_ckpt.first_cycles, "cycles CTAs stood still for first checkpoints", "cycles");
    const char* names[5] = {"case_a", "case_b", "case_c", "case_d", "case_e"};
    const char* what[5] = {"CTAs that left with two checkpoints", "CTAs that left with one checkpoint",
                           "CTAs drained", "CTAs started after the prediction that left with one checkpoint",
                           "CTAs started after the prediction that left with two checkpoints"};
    for (size_t i = 0; i < 5; ++i) g.add(names[i], m_cases[i], what[i], "CTAs");
}

void PreemptionController::launch_called(core::KernelLaunch& kernel) {
    if (!m_policy->proactive()) return;
    // The controller hears of the call after the signal and expects the request prediction_us
    // after the call. The thesis (§4.5.2) takes the first checkpoints when the signal arrives;
    // the older reading waited for the predicted request (never before the signal).
    const auto ps = [](double us) { return static_cast<uint64_t>(std::llround(us * 1e6)); };
    const uint64_t now = sc_core::sc_time_stamp().value();
    const uint64_t predicted = now + ps(m_cfg.prediction_us);
    const uint64_t delay = m_cfg.first_checkpoint == FirstCheckpoint::Launch
                               ? ps(m_cfg.launch_signal_us)
                               : ps(std::max(m_cfg.launch_signal_us, m_cfg.prediction_us));
    m_predictions.push_back({now + delay, predicted, &kernel});
    m_predict_q.notify(sc_core::sc_time::from_value(delay));
}

void PreemptionController::predict() {
    const uint64_t now = sc_core::sc_time_stamp().value();
    std::vector<Prediction> due;
    for (auto it = m_predictions.begin(); it != m_predictions.end();) {
        if (it->due_ps <= now) {
            due.push_back(*it);
            it = m_predictions.erase(it);
        } else {
            ++it;
        }
    }
    for (const Prediction& p : due) prepare(*p.kernel, p.predicted_ps);
}

void PreemptionController::prepare(core::KernelLaunch& kernel, uint64_t predicted_ps) {
    // The request came first (the kernel runs or ran already): nothing to predict.
    if (m_dispatcher.tally(kernel).warp_instructions > 0 || kernel_running(kernel)) return;
    const std::vector<uint32_t> cands = candidates(kernel, false, nullptr);
    if (cands.empty()) return;
    const uint64_t per_sm = std::max<uint32_t>(
        1, core::occupancy(m_sm, kernel.threads_per_cta(), kernel.regs_per_thread, kernel.shared_bytes).ctas);
    uint64_t wanted = (kernel.num_ctas() + per_sm - 1) / per_sm;
    if (m_cfg.max_sms) wanted = std::min<uint64_t>(wanted, m_cfg.max_sms);
    const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(wanted, cands.size()));
    const auto& sms = m_dispatcher.sms();
    // The SMs the request will take: the n with the lowest estimated latency, as at the request.
    std::vector<std::pair<uint64_t, uint32_t>> ranked;
    for (uint32_t s : cands) {
        const auto ctas = sms[s]->resident_ctas();
        uint64_t context = 0, latency = 0;
        for (auto& r : ctas) context += r.context_bytes;
        for (auto& r : ctas) {
            if (r.leaving) continue;
            const CtaEstimate e = estimate(r, context, n);
            latency = std::max(latency, PreemptionPolicy::latency(e, m_policy->choose(e)));
        }
        ranked.push_back({latency, s});
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    ranked.resize(n);
    ++m_predictions_made;
    // Core cycles from now to the predicted request (0 once it is past).
    const uint64_t now_ps = sc_core::sc_time_stamp().value();
    const double until_cycles =
        predicted_ps > now_ps ? static_cast<double>(predicted_ps - now_ps) * 1e-6 * m_cycles_per_us : 0.0;
    std::vector<uint32_t> chosen;
    for (auto& [latency, s] : ranked) {
        chosen.push_back(s);
        const auto ctas = sms[s]->resident_ctas();
        uint64_t context = 0;
        for (auto& r : ctas) context += r.context_bytes;
        // CTAs expected to outlast the predicted request take their first checkpoint now (case a),
        // the others drain; CTAs that start in their place checkpoint after checkpoint_after
        // instructions (cases d, e). At the launch signal the prediction decides (thesis
        // §4.5.2: checkpoint when the predicted launch time is shorter than the CTA's remaining
        // time, PEP's measured estimate); at the predicted time the policy's choice does.
        sms[s]->send(core::CtaCommand::set(core::CtaCommandKind::ArmCheckpoints, m_cfg.checkpoint_after, &m_ckpt));
        for (auto& r : ctas) {
            if (r.leaving || r.restoring || r.checkpoints > 0) continue;
            const CtaEstimate e = estimate(r, context, n);
            const bool checkpoint = m_cfg.first_checkpoint == FirstCheckpoint::Launch
                                        ? static_cast<double>(e.measured_drain_cycles) > until_cycles
                                        : m_policy->choose(e) == core::PreemptTechnique::Switch;
            if (!checkpoint) continue;
            core::CheckpointOrder o;
            o.resume = true;
            o.counters = &m_ckpt;
            sms[s]->send(core::CtaCommand::checkpoint(r.slot, o));
        }
    }
    m_prepared.push_back({&kernel, std::move(chosen)});
}

}  // namespace stacksim::sched
