// SPDX-License-Identifier: Apache-2.0
// Patent 004's pair ranking and preemption test (gain vs cost), as plain functions over kernel states.
#pragma once
#include <cstdint>
#include <vector>

#include "sched/kernel_analysis.h"
#include "sim/param.h"

namespace stacksim::sched {

/// [kernel_scheduler.patent]: the patent scheduler's parameters.
struct PatentParams {
    uint32_t max_running = 2;        ///< cap on kernels placing CTAs at once
    double memory_threshold = 0.10;  ///< analysis: memory fraction at or above it = memory-intensive
    double decay = 0.9;              ///< cost factor when the kernel that keeps running is memory-intensive (0.83-0.97)
    double norm_ipc_mixed = 0.8;     ///< prior normalised IPC of each kernel of a memory+compute pair
    double norm_ipc_same = 0.5;      ///< prior normalised IPC of each kernel of a same-class pair
    uint64_t min_interval = 2000;    ///< cycles: shorter measurement intervals do not update IPCs
    static const sim::Params<PatentParams>& params();
};

/// What the ranking knows of one kernel (running or pending). IPCs in warp instructions per cycle.
struct KernelState {
    KernelClass cls = KernelClass::Compute;
    double remaining = 0;           ///< predicted warp instructions still to issue
    double ipc_shared = 0;          ///< measured now, beside the other running kernels
    double ipc_alone = 0;           ///< measured alone, or estimated (0 = unknown)
    double l2_miss_rate = 0;        ///< L2 read miss rate while it runs (0..1)
    uint64_t bytes_per_cta = 0;     ///< registers + shared memory of one CTA
    uint64_t resident_ctas = 0;     ///< CTAs on the SMs now
    bool preempted = false;         ///< in the pool after a preemption
    uint64_t arrival = 0;           ///< arrival order (smaller = earlier)
};

/// norm_IPC = IPC_shared / IPC_alone (1 when IPC_alone is unknown).
double norm_ipc(const KernelState& k);
/// Pair rank: 2 for memory + compute, 1 for two of a kind.
int pair_rank(KernelClass a, KernelClass b);
/// Rank of a set of co-running kernels: the sum of the pair ranks of its pairs.
int set_rank(const std::vector<KernelClass>& set);
/// preempt_cycle = (0.09526 x miss_rate + 0.01633) x bytes_per_cta x ctas (cycles).
double preempt_cycles(double miss_rate, uint64_t bytes_per_cta, uint64_t ctas);
/// cost = sum over the kernels that keep running of norm_IPC x decay x preempt_cycle(their miss
/// rate, the victim's CTAs); decay only for a memory-intensive kept kernel, else 1.
double preemption_cost(const std::vector<KernelState>& keep, const KernelState& victim, double decay);
/// gain = (STP_after - STP_before) x H: STP_before the measured sum of norm_IPCs of the running
/// set; STP_after the predicted one with `candidate` in place of `victim` (each kernel at
/// `norm_mixed` if the set holds both classes, else `norm_same`); H = victim.remaining /
/// victim.ipc_shared, the cycles the victim would still hold its place (alone-equivalent cycles).
double preemption_gain(const std::vector<KernelState>& keep, const KernelState& victim, const KernelState& candidate,
                       double norm_mixed, double norm_same);

/// The patent scheduler's choice.
struct PatentChoice {
    enum class Kind : uint8_t { Wait, Launch, Preempt };
    Kind kind = Kind::Wait;
    size_t pending = 0;  ///< index into `pending`
    size_t victim = 0;   ///< Preempt: index into `running`
    double gain = 0, cost = 0;
    bool better_pair = false;  ///< at the cap, a better-ranked set existed (preempted or not)
};

/// Below `cap` running kernels: launch the pending kernel that ranks best with the running ones
/// (ties: preempted before new, then arrival). At the cap: for every running victim and pending
/// candidate whose set ranks strictly better, preempt the one with the largest gain - cost if
/// gain > cost; else wait.
PatentChoice patent_choose(const std::vector<KernelState>& pending, const std::vector<KernelState>& running,
                           uint32_t cap, double decay, double norm_mixed, double norm_same);

}  // namespace stacksim::sched
