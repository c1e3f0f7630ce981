// SPDX-License-Identifier: Apache-2.0
// Patent 004's multi-tenant preemptive kernel scheduler: measures IPCs and L2 miss rates, ranks pairs, preempts on gain > cost.
#include <algorithm>
#include <map>

#include "core/occupancy.h"
#include "sched/cta_dispatcher.h"
#include "sched/kernel_analysis.h"
#include "sched/kernel_scheduler.h"
#include "sched/patent_ranking.h"

namespace stacksim::sched {

namespace {

/// Keeps, per kernel, its analysis and its IPC measured over intervals in which the set of
/// running kernels did not change (alone: IPC_alone; beside others: IPC_shared), and the L2
/// read miss rate of the GPU over the same intervals.
class PatentScheduler final : public KernelScheduler {
public:
    PatentScheduler(const PatentParams& p, const SchedulerProbe& probe)
        : m_p(p), m_probe(probe), m_norm_mixed(p.norm_ipc_mixed), m_norm_same(p.norm_ipc_same) {}

    Decision next(const std::vector<Pending>& pool, const std::vector<core::KernelLaunch*>& running,
                  uint32_t max_resident) override {
        observe(running);
        std::vector<KernelState> pend, run;
        for (const Pending& p : pool) pend.push_back(state(*p.launch, p.preempted, p.arrival));
        for (core::KernelLaunch* k : running) run.push_back(state(*k, false, 0));
        const uint32_t cap = std::min(max_resident, m_p.max_running);
        const PatentChoice c = patent_choose(pend, run, cap, m_p.decay, m_norm_mixed, m_norm_same);
        if (c.better_pair && c.kind != PatentChoice::Kind::Preempt && now() != m_declined_at) {
            m_declined_at = now();
            ++m_tally.declined;
            m_tally.gain_declined += c.gain;
            m_tally.cost_declined += c.cost;
        }
        Decision d;
        d.index = c.pending;
        if (c.kind == PatentChoice::Kind::Launch) d.kind = Decision::Kind::Launch;
        if (c.kind == PatentChoice::Kind::Preempt) {
            d.kind = Decision::Kind::Preempt;
            d.victim = running[c.victim];
            ++m_tally.preemptions;
            m_tally.gain_taken += c.gain;
            m_tally.cost_taken += c.cost;
        }
        return d;
    }
    Tally tally() const override { return m_tally; }

private:
    struct Info {
        KernelAnalysis analysis;
        double ipc_shared = 0, ipc_alone = 0, miss = 0;
        bool measured = false;
        uint64_t first_cycle = 0;
    };
    struct Snapshot {
        uint64_t cycle = 0;
        std::pair<uint64_t, uint64_t> l2{0, 0};
        std::map<const core::KernelLaunch*, uint64_t> instructions;
    };

    uint64_t now() const { return m_probe.cycle ? m_probe.cycle() : 0; }
    /// Warp instructions `k` issued so far (the SMs' tallies, summed by the dispatcher).
    uint64_t issued(const core::KernelLaunch& k) const {
        return m_probe.dispatcher ? m_probe.dispatcher->tally(k).warp_instructions : k.warp_instructions;
    }
    std::pair<uint64_t, uint64_t> l2() const {
        return m_probe.l2_reads_misses ? m_probe.l2_reads_misses() : std::pair<uint64_t, uint64_t>{0, 0};
    }

    Info& info(const core::KernelLaunch& k) {
        auto it = m_info.find(&k);
        if (it == m_info.end()) {
            it = m_info.emplace(&k, Info{}).first;
            it->second.analysis = analyze_kernel(k, m_p.memory_threshold);
        }
        return it->second;
    }

    /// Closes the measurement interval when the running set changed (or when it is long enough)
    /// and opens a new one.
    void observe(const std::vector<core::KernelLaunch*>& running) {
        std::vector<const core::KernelLaunch*> set(running.begin(), running.end());
        const uint64_t t = now();
        const bool changed = set != m_set;
        if (!changed && t - m_open.cycle < m_p.min_interval) return;
        measure(t);
        m_set = set;
        m_open.cycle = t;
        m_open.l2 = l2();
        m_open.instructions.clear();
        for (const core::KernelLaunch* k : set) {
            m_open.instructions[k] = issued(*k);
            Info& i = info(*k);
            if (!i.first_cycle) i.first_cycle = t ? t : 1;
        }
    }

    void measure(uint64_t t) {
        if (m_set.empty() || t - m_open.cycle < m_p.min_interval) return;
        const double cycles = static_cast<double>(t - m_open.cycle);
        const auto [reads, misses] = l2();
        const uint64_t dr = reads - m_open.l2.first;
        const double miss = dr ? static_cast<double>(misses - m_open.l2.second) / static_cast<double>(dr) : 0.0;
        double norm_sum = 0;
        bool all_alone_known = true, mixed = false;
        for (const core::KernelLaunch* k : m_set) {
            Info& i = info(*k);
            const double ipc = static_cast<double>(issued(*k) - m_open.instructions[k]) / cycles;
            i.ipc_shared = ipc;
            i.miss = miss;
            i.measured = true;
            if (m_set.size() == 1) i.ipc_alone = ipc;
            all_alone_known = all_alone_known && i.ipc_alone > 0;
            if (i.ipc_alone > 0) norm_sum += std::min(1.0, ipc / i.ipc_alone);
            mixed = mixed || i.analysis.cls != info(*m_set.front()).analysis.cls;
        }
        // The measured normalised IPC of a pair type replaces its prior (running mean).
        if (m_set.size() >= 2 && all_alone_known) {
            const double norm = norm_sum / static_cast<double>(m_set.size());
            double& mean = mixed ? m_norm_mixed : m_norm_same;
            uint64_t& n = mixed ? m_samples_mixed : m_samples_same;
            mean = n ? (mean * static_cast<double>(n) + norm) / static_cast<double>(n + 1) : norm;
            ++n;
        }
    }

    KernelState state(const core::KernelLaunch& k, bool preempted, uint64_t arrival) {
        Info& i = info(k);
        KernelState s;
        s.cls = i.analysis.cls;
        const uint64_t done = issued(k);
        s.remaining = std::max(0.0, predicted_instructions(i.analysis, k, done) - static_cast<double>(done));
        s.preempted = preempted;
        s.arrival = arrival;
        s.bytes_per_cta = uint64_t{core::registers_per_warp(k.regs_per_thread)} * k.warps_per_cta() * 4 + k.shared_bytes;
        if (m_probe.dispatcher)
            for (const SmLink* sm : m_probe.dispatcher->sms())
                for (const core::ResidentCta& c : sm->resident_ctas())
                    if (c.launch == &k) ++s.resident_ctas;
        if (i.measured) {
            s.ipc_shared = i.ipc_shared;
            s.l2_miss_rate = i.miss;
        } else if (i.first_cycle && now() > i.first_cycle) {  // too short to measure: since its start
            s.ipc_shared = static_cast<double>(done) / static_cast<double>(now() - i.first_cycle);
        }
        // Never measured alone: assume the prior (or measured mean) normalised IPC of its pair type.
        s.ipc_alone = i.ipc_alone;
        if (s.ipc_alone <= 0 && s.ipc_shared > 0 && m_set.size() >= 2) {
            bool mixed = false;
            for (const core::KernelLaunch* o : m_set) mixed = mixed || info(*o).analysis.cls != s.cls;
            s.ipc_alone = s.ipc_shared / (mixed ? m_norm_mixed : m_norm_same);
        }
        return s;
    }

    PatentParams m_p;
    SchedulerProbe m_probe;
    double m_norm_mixed, m_norm_same;
    uint64_t m_samples_mixed = 0, m_samples_same = 0;
    Tally m_tally;
    uint64_t m_declined_at = ~uint64_t{0};
    std::map<const core::KernelLaunch*, Info> m_info;
    std::vector<const core::KernelLaunch*> m_set;
    Snapshot m_open;
};

const bool registered = kernel_schedulers().add_with<PatentParams>(
    "patent",
    "patent 004: pairs memory- with compute-intensive kernels under a cap on running kernels; preempts a running "
    "kernel for a better pair when the predicted gain exceeds the cost (docs/preemption.md)",
    [](const PatentParams& p, const SchedulerProbe& probe) { return std::make_unique<PatentScheduler>(p, probe); });

}  // namespace

}  // namespace stacksim::sched
