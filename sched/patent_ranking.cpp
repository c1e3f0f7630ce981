// SPDX-License-Identifier: Apache-2.0
// Patent 004's pair ranking and preemption test (gain vs cost), as plain functions over kernel states.
#include "sched/patent_ranking.h"

#include <algorithm>

namespace stacksim::sched {

const sim::Params<PatentParams>& PatentParams::params() {
    using P = PatentParams;
    static const auto p = [] {
        sim::Params<P> p;
        p.add("max_running", &P::max_running, "kernels", "cap on kernels placing CTAs at once").range(1, 1024);
        p.add("memory_threshold", &P::memory_threshold, "",
              "analysis module: a kernel whose global loads/stores/atomics are at least this fraction of its "
              "instructions is memory-intensive")
            .range(0.0, 1.0);
        p.add("decay", &P::decay, "",
              "cost factor when the kernel that keeps running is memory-intensive (the patent's 0.83-0.97)")
            .range(0.83, 0.97);
        p.add("norm_ipc_mixed", &P::norm_ipc_mixed, "",
              "prior normalised IPC (shared/alone) of each kernel of a memory+compute pair; replaced by the "
              "mean measured once such a pair ran")
            .range(0.01, 1.0);
        p.add("norm_ipc_same", &P::norm_ipc_same, "",
              "prior normalised IPC of each kernel of a same-class pair; replaced by the mean measured")
            .range(0.01, 1.0);
        p.add("min_interval", &P::min_interval, "cycles",
              "shortest interval with an unchanged set of running kernels whose IPCs are measured")
            .range(1, uint64_t{1} << 40);
        return p;
    }();
    return p;
}

double norm_ipc(const KernelState& k) { return k.ipc_alone > 0 ? k.ipc_shared / k.ipc_alone : 1.0; }

int pair_rank(KernelClass a, KernelClass b) { return a != b ? 2 : 1; }

int set_rank(const std::vector<KernelClass>& set) {
    int r = 0;
    for (size_t i = 0; i < set.size(); ++i)
        for (size_t j = i + 1; j < set.size(); ++j) r += pair_rank(set[i], set[j]);
    return r;
}

double preempt_cycles(double miss_rate, uint64_t bytes_per_cta, uint64_t ctas) {
    return (0.09526 * miss_rate + 0.01633) * static_cast<double>(bytes_per_cta) * static_cast<double>(ctas);
}

namespace {

double predicted_stp(const std::vector<KernelClass>& set, double norm_mixed, double norm_same) {
    if (set.size() <= 1) return static_cast<double>(set.size());
    bool mixed = false;
    for (KernelClass c : set) mixed = mixed || c != set.front();
    return static_cast<double>(set.size()) * (mixed ? norm_mixed : norm_same);
}

}  // namespace

double rest_cycles(const std::vector<KernelState>& running) {
    double rest = -1;
    for (const KernelState& k : running) {
        if (k.ipc_shared <= 0) return 0;
        const double r = k.remaining / k.ipc_shared;
        rest = rest < 0 ? r : std::min(rest, r);
    }
    return std::max(rest, 0.0);
}

PreemptionEstimate estimate_preemption(const std::vector<KernelState>& keep, const KernelState& victim,
                                       const KernelState& candidate, double decay, double norm_mixed,
                                       double norm_same) {
    PreemptionEstimate e;
    std::vector<KernelState> running = keep;
    running.push_back(victim);
    e.rest = rest_cycles(running);
    if (e.rest <= 0) return e;
    double miss = 0;
    for (const KernelState& k : keep) miss += k.l2_miss_rate;
    if (!keep.empty()) miss /= static_cast<double>(keep.size());
    e.preempt = std::min(e.rest, preempt_cycles(miss, victim.bytes_per_cta, victim.resident_ctas));
    double stp_before = norm_ipc(victim), kept_rate = 0;
    std::vector<KernelClass> after{candidate.cls};
    for (const KernelState& k : keep) {
        stp_before += norm_ipc(k);
        kept_rate += norm_ipc(k) * (k.cls == KernelClass::Memory ? decay : 1.0);
        after.push_back(k.cls);
    }
    const double stp_after = predicted_stp(after, norm_mixed, norm_same);
    e.before = stp_before * e.rest;
    e.during = kept_rate * e.preempt;
    e.after = e.during + stp_after * (e.rest - e.preempt);
    e.gain = (stp_after - stp_before) * (e.rest - e.preempt);
    e.cost = stp_before * e.preempt - e.during;
    return e;
}

PatentChoice patent_choose(const std::vector<KernelState>& pending, const std::vector<KernelState>& running,
                           uint32_t cap, double decay, double norm_mixed, double norm_same) {
    PatentChoice c;
    if (pending.empty()) return c;
    if (running.size() < cap) {
        // The best partner of the running kernels.
        int best_rank = -1;
        for (size_t i = 0; i < pending.size(); ++i) {
            int rank = 0;
            for (const KernelState& r : running) rank += pair_rank(r.cls, pending[i].cls);
            const KernelState& b = pending[c.pending];
            const bool better = rank > best_rank ||
                                (rank == best_rank && (pending[i].preempted != b.preempted ? pending[i].preempted
                                                                                           : pending[i].arrival < b.arrival));
            if (better) {
                best_rank = rank;
                c.pending = i;
            }
        }
        c.kind = PatentChoice::Kind::Launch;
        return c;
    }
    std::vector<KernelClass> now;
    for (const KernelState& r : running) now.push_back(r.cls);
    const int rank_now = set_rank(now);
    for (size_t v = 0; v < running.size(); ++v) {
        std::vector<KernelState> keep;
        for (size_t k = 0; k < running.size(); ++k)
            if (k != v) keep.push_back(running[k]);
        for (size_t p = 0; p < pending.size(); ++p) {
            std::vector<KernelClass> after = now;
            after[v] = pending[p].cls;
            if (set_rank(after) <= rank_now) continue;
            const PreemptionEstimate e =
                estimate_preemption(keep, running[v], pending[p], decay, norm_mixed, norm_same);
            const double gain = e.gain, cost = e.cost;
            // On equal merit a preempted kernel outranks a new one.
            const bool tie = c.better_pair && gain - cost == c.gain - c.cost && pending[p].preempted &&
                             !pending[c.pending].preempted;
            if (!c.better_pair || gain - cost > c.gain - c.cost || tie) {
                c.better_pair = true;
                c.pending = p;
                c.victim = v;
                c.gain = gain;
                c.cost = cost;
            }
        }
    }
    if (c.better_pair && c.gain > c.cost) c.kind = PatentChoice::Kind::Preempt;
    return c;
}

}  // namespace stacksim::sched
