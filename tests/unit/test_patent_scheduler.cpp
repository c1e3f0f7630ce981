// SPDX-License-Identifier: Apache-2.0
// Patent 004's scheduler: pair ranking, the preemption cost formula, and gain vs cost on constructed kernel pairs.
#include <catch2/catch.hpp>

#include "sched/kernel_analysis.h"
#include "sched/kernel_scheduler.h"
#include "sched/patent_ranking.h"
#include "tests/unit/ptx_test_util.h"
#include "workloads/ptx_parser.h"

using namespace stacksim::sched;
namespace core = stacksim::core;

namespace {

constexpr double kDecay = 0.9, kMixed = 0.8, kSame = 0.5;

/// A running memory-intensive kernel: half its alone IPC, 16 CTAs of 32 KB resident.
KernelState memory_kernel(double remaining) {
    KernelState k;
    k.cls = KernelClass::Memory;
    k.remaining = remaining;
    k.ipc_shared = 1.0;
    k.ipc_alone = 2.0;
    k.l2_miss_rate = 0.5;
    k.bytes_per_cta = 32768;
    k.resident_ctas = 16;
    return k;
}

KernelState pending(KernelClass c, bool preempted, uint64_t arrival) {
    KernelState k;
    k.cls = c;
    k.preempted = preempted;
    k.arrival = arrival;
    return k;
}

}  // namespace

TEST_CASE("patent: preempt_cycle, rest_cycle and the two phases after a preemption follow the patent", "[patent]") {
    CHECK(preempt_cycles(0.5, 32768, 16) == Approx((0.09526 * 0.5 + 0.01633) * 32768 * 16));
    CHECK(preempt_cycles(0.0, 1000, 2) == Approx(0.01633 * 2000));
    // rest_cycle: how long the running kernels still run together (the least remaining / IPC).
    CHECK(rest_cycles({memory_kernel(1e6), memory_kernel(3e5)}) == Approx(3e5));
    KernelState unmeasured = memory_kernel(1e6);
    unmeasured.ipc_shared = 0;
    CHECK(rest_cycles({memory_kernel(1e6), unmeasured}) == 0);

    const KernelState victim = memory_kernel(1e6);
    const double pc = preempt_cycles(0.5, 32768, 16);
    const PreemptionEstimate e =
        estimate_preemption({memory_kernel(1e6)}, victim, pending(KernelClass::Compute, false, 0), kDecay, kMixed, kSame);
    CHECK(e.rest == Approx(1e6));
    CHECK(e.preempt == Approx(pc));
    CHECK(e.before == Approx((0.5 + 0.5) * 1e6));
    // During the preemption only the kept memory kernel runs, slowed by decay.
    CHECK(e.during == Approx(0.5 * kDecay * pc));
    CHECK(e.after == Approx(e.during + 2 * kMixed * (1e6 - pc)));
    CHECK(e.gain - e.cost == Approx(e.after - e.before));
    CHECK(e.cost == Approx(1.0 * pc - 0.5 * kDecay * pc));
    // More interference (a lower decay) makes the preemption dearer, not cheaper.
    const PreemptionEstimate harsh =
        estimate_preemption({memory_kernel(1e6)}, victim, pending(KernelClass::Compute, false, 0), 0.83, kMixed, kSame);
    CHECK(harsh.cost > e.cost);
    // A compute-intensive kept kernel is not slowed (decay 1).
    KernelState compute = memory_kernel(1e6);
    compute.cls = KernelClass::Compute;
    const PreemptionEstimate c =
        estimate_preemption({compute}, victim, pending(KernelClass::Compute, false, 0), kDecay, kMixed, kSame);
    CHECK(c.during == Approx(0.5 * pc));
}

TEST_CASE("patent: the horizon is the time both kernels still run together, not the victim's remaining time", "[patent]") {
    // The kept kernel ends in 3k cycles: the better pair would hardly run; the victim's 2M left do not count.
    const PatentChoice c = patent_choose({pending(KernelClass::Compute, false, 3)},
                                         {memory_kernel(3e3), memory_kernel(2e6)}, 2, kDecay, kMixed, kSame);
    REQUIRE(c.better_pair);
    CHECK(c.kind == PatentChoice::Kind::Wait);
    CHECK(c.gain <= c.cost);
}

TEST_CASE("patent: pair ranking puts memory+compute above two of a kind", "[patent]") {
    CHECK(pair_rank(KernelClass::Memory, KernelClass::Compute) > pair_rank(KernelClass::Memory, KernelClass::Memory));
    CHECK(pair_rank(KernelClass::Memory, KernelClass::Compute) > pair_rank(KernelClass::Compute, KernelClass::Compute));
    // Below the cap the best partner of the running memory kernel is the compute kernel, though it came later.
    const std::vector<KernelState> run{memory_kernel(1e6)};
    const PatentChoice c = patent_choose({pending(KernelClass::Memory, false, 1), pending(KernelClass::Compute, false, 2)},
                                         run, 2, kDecay, kMixed, kSame);
    CHECK(c.kind == PatentChoice::Kind::Launch);
    CHECK(c.pending == 1);
}

TEST_CASE("patent: a preempted kernel outranks a new one on a tie", "[patent]") {
    const std::vector<KernelState> pool{pending(KernelClass::Compute, false, 1), pending(KernelClass::Compute, true, 5)};
    const PatentChoice below = patent_choose(pool, {memory_kernel(1e6)}, 2, kDecay, kMixed, kSame);
    CHECK(below.kind == PatentChoice::Kind::Launch);
    CHECK(below.pending == 1);
    const PatentChoice at_cap =
        patent_choose(pool, {memory_kernel(1e6), memory_kernel(1e6)}, 2, kDecay, kMixed, kSame);
    CHECK(at_cap.kind == PatentChoice::Kind::Preempt);
    CHECK(at_cap.pending == 1);
}

TEST_CASE("patent: the cap on running kernels holds without a better pair", "[patent]") {
    KernelState compute = memory_kernel(1e6);
    compute.cls = KernelClass::Compute;
    // Running memory + compute: a new memory kernel makes no better pair, so it waits.
    const PatentChoice c =
        patent_choose({pending(KernelClass::Memory, false, 3)}, {memory_kernel(1e6), compute}, 2, kDecay, kMixed, kSame);
    CHECK(c.kind == PatentChoice::Kind::Wait);
    CHECK_FALSE(c.better_pair);
}

TEST_CASE("patent: two memory kernels running, a compute kernel arrives: preempts when gain exceeds cost", "[patent]") {
    // Both still have 2M warp instructions at IPC 1: gain = 0.6 x (2e6 - preempt_cycle) >> cost.
    const PatentChoice c = patent_choose({pending(KernelClass::Compute, false, 3)},
                                         {memory_kernel(2e6), memory_kernel(2e6)}, 2, kDecay, kMixed, kSame);
    REQUIRE(c.better_pair);
    CHECK(c.gain > c.cost);
    CHECK(c.kind == PatentChoice::Kind::Preempt);
    CHECK(c.pending == 0);
    const double pc = preempt_cycles(0.5, 32768, 16);
    CHECK(c.gain == Approx((2 * kMixed - 1.0) * (2e6 - pc)));
    CHECK(c.cost == Approx(1.0 * pc - 0.5 * kDecay * pc));
}

TEST_CASE("patent: the same pair near its end is not preempted: cost exceeds gain", "[patent]") {
    // Only 20k warp instructions left: the preemption (about 33.5k cycles) would outlast the pair,
    // so nothing is gained and 20k cycles of the running pair's work are partly lost.
    const PatentChoice c = patent_choose({pending(KernelClass::Compute, false, 3)},
                                         {memory_kernel(2e4), memory_kernel(2e4)}, 2, kDecay, kMixed, kSame);
    REQUIRE(c.better_pair);
    CHECK(c.gain < c.cost);
    CHECK(c.kind == PatentChoice::Kind::Wait);
}

TEST_CASE("patent: the kernel schedulers are registered", "[patent][policy]") {
    CHECK(kernel_schedulers().contains("fcfs"));
    CHECK(kernel_schedulers().contains("patent"));
    CHECK(kernel_schedulers().create("patent", SchedulerProbe{}));
}

TEST_CASE("patent: the analysis module classifies library kernels and weights loops", "[patent]") {
    auto launch_of = [](const std::string& file, const std::string& entry, core::Module& m) {
        m = stacksim::workloads::parse_ptx(stacksim::test::read_source_file("workloads/kernels/" + file + ".ptx"),
                                           file + ".ptx");
        core::KernelLaunch l;
        l.kernel = m.find(entry);
        REQUIRE(l.kernel);
        l.grid = {4, 1, 1};
        l.block = {256, 1, 1};
        return l;
    };
    core::Module m1, m2, m3;
    const core::KernelLaunch copy = launch_of("stream", "stream_copy", m1);
    const core::KernelLaunch read = launch_of("stream", "stream_read", m2);
    const core::KernelLaunch mm = launch_of("matmul", "matmul", m3);
    const double threshold = PatentParams{}.memory_threshold;
    CHECK(analyze_kernel(copy, threshold).cls == KernelClass::Memory);
    CHECK(analyze_kernel(read, threshold).cls == KernelClass::Memory);
    CHECK(analyze_kernel(mm, threshold).cls == KernelClass::Compute);
    // Loops weigh more than the static body: the prediction exceeds static count x warps x CTAs.
    const KernelAnalysis a = analyze_kernel(mm, threshold);
    CHECK(a.instructions > static_cast<double>(mm.kernel->code.size()) * 8 * 4);
    // Once CTAs finished, their mean replaces the static prediction.
    core::KernelLaunch done = mm;
    done.ctas_completed = 2;
    done.cta_instructions = 2000;
    done.warp_instructions = 2500;
    CHECK(predicted_instructions(a, done, 2500) == Approx(4000.0));
}
