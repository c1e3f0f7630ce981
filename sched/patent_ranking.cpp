// SPDX-License-Identifier: Apache-2.0
// Patent 004's pair ranking and preemption test (gain vs cost), as plain functions over kernel states.
#include "sched/patent_ranking.h"

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

double preemption_cost(const std::vector<KernelState>& keep, const KernelState& victim, double decay) {
    double cost = 0;
    for (const KernelState& k : keep) {
        const double d = k.cls == KernelClass::Memory ? decay : 1.0;
        cost += norm_ipc(k) * d * preempt_cycles(k.l2_miss_rate, victim.bytes_per_cta, victim.resident_ctas);
    }
    return cost;
}

namespace {

double predicted_stp(const std::vector<KernelClass>& set, double norm_mixed, double norm_same) {
    if (set.size() <= 1) return static_cast<double>(set.size());
    bool mixed = false;
    for (KernelClass c : set) mixed = mixed || c != set.front();
    return static_cast<double>(set.size()) * (mixed ? norm_mixed : norm_same);
}

}  // namespace

double preemption_gain(const std::vector<KernelState>& keep, const KernelState& victim, const KernelState& candidate,
                       double norm_mixed, double norm_same) {
    if (victim.ipc_shared <= 0) return 0;
    double before = norm_ipc(victim);
    std::vector<KernelClass> after{candidate.cls};
    for (const KernelState& k : keep) {
        before += norm_ipc(k);
        after.push_back(k.cls);
    }
    const double horizon = victim.remaining / victim.ipc_shared;
    return (predicted_stp(after, norm_mixed, norm_same) - before) * horizon;
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
            const double gain = preemption_gain(keep, running[v], pending[p], norm_mixed, norm_same);
            const double cost = preemption_cost(keep, running[v], decay);
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
