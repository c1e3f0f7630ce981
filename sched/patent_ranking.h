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
/// rest_cycle: the cycles the running kernels still run together, the least over them of
/// remaining warp instructions / IPC_shared; 0 when one has no measured IPC yet.
double rest_cycles(const std::vector<KernelState>& running);

/// The patent's comparison of one preemption (victim out, candidate in), in normalised IPC x
/// cycles (alone-equivalent cycles of work) over the horizon rest_cycle:
/// - before = sum of norm_IPC of the running kernels x rest_cycle;
/// - after  = during + STP_after x (rest_cycle - preempt_cycle), two phases:
///   during = sum over the kept kernels of norm_IPC x decay x preempt_cycle (decay for a
///   memory-intensive kept kernel, else 1), while the victim's context is saved and the candidate
///   does not run yet; then STP_after, the predicted sum with the candidate in the victim's place
///   (each kernel at `norm_mixed` if the set holds both classes, else `norm_same`).
/// preempt_cycle uses the mean L2 miss rate of the kept kernels and the victim's CTAs, capped at
/// rest_cycle. after - before = gain - cost with gain = (STP_after - STP_before) x (rest_cycle -
/// preempt_cycle), the better pair's extra work once it runs, and cost = STP_before x
/// preempt_cycle - during, the work lost while the preemption lasts (more interference, a lower
/// decay, makes it dearer).
struct PreemptionEstimate {
    double rest = 0;     ///< rest_cycle, cycles
    double preempt = 0;  ///< preempt_cycle (capped at rest), cycles
    double before = 0, during = 0, after = 0;  ///< alone-equivalent cycles
    double gain = 0, cost = 0;                 ///< alone-equivalent cycles; preempt when gain > cost
};
PreemptionEstimate estimate_preemption(const std::vector<KernelState>& keep, const KernelState& victim,
                                       const KernelState& candidate, double decay, double norm_mixed,
                                       double norm_same);

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
/// candidate whose set ranks strictly better, preempt the one with the largest gain - cost
/// (estimate_preemption) if gain > cost; else wait.
PatentChoice patent_choose(const std::vector<KernelState>& pending, const std::vector<KernelState>& running,
                           uint32_t cap, double decay, double norm_mixed, double norm_same);

}  // namespace stacksim::sched
