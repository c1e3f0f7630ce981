// SPDX-License-Identifier: Apache-2.0
// The patent scheduler's analysis module: a kernel's predicted instruction count and class.
#include "sched/kernel_analysis.h"

#include <algorithm>
#include <cmath>

#include "core/trace_kernel.h"

namespace stacksim::sched {

namespace {

/// Iterations assumed per loop level (static analysis cannot know the trip count).
constexpr double kLoopWeight = 8.0;

bool global_memory(const core::Instruction& i) {
    return i.unit() == core::UnitClass::LdSt &&
           (i.space == core::StateSpace::Global || i.space == core::StateSpace::Generic);
}

}  // namespace

KernelAnalysis analyze_kernel(const core::KernelLaunch& launch, double memory_threshold) {
    KernelAnalysis a;
    uint64_t total = 0, memory = 0;
    if (launch.kernel) {
        // Each instruction weighs kLoopWeight^(loops around it): a loop is a backward branch.
        const std::vector<core::Instruction>& code = launch.kernel->code;
        std::vector<uint32_t> depth(code.size(), 0);
        for (size_t b = 0; b < code.size(); ++b)
            if (code[b].control() == core::ControlKind::Branch && code[b].target <= b)
                for (size_t i = code[b].target; i <= b; ++i) ++depth[i];
        double weighted = 0, weighted_memory = 0;
        for (size_t i = 0; i < code.size(); ++i) {
            const double w = std::pow(kLoopWeight, std::min<uint32_t>(depth[i], 3));
            weighted += w;
            weighted_memory += global_memory(code[i]) ? w : 0;
        }
        a.memory_fraction = weighted > 0 ? weighted_memory / weighted : 0.0;
        a.cls = a.memory_fraction >= memory_threshold ? KernelClass::Memory : KernelClass::Compute;
        a.instructions = weighted * launch.warps_per_cta() * static_cast<double>(launch.num_ctas());
        return a;
    } else if (launch.trace) {
        for (const core::CtaTrace& c : launch.trace->ctas)
            for (const core::WarpTrace& w : c.warps)
                for (const core::TraceInstruction& t : w.insts) {
                    ++total;
                    memory += global_memory(*t.inst) ? 1 : 0;
                }
        a.instructions = static_cast<double>(total);
    }
    a.memory_fraction = total ? static_cast<double>(memory) / static_cast<double>(total) : 0.0;
    a.cls = a.memory_fraction >= memory_threshold ? KernelClass::Memory : KernelClass::Compute;
    return a;
}

double predicted_instructions(const KernelAnalysis& a, const core::KernelLaunch& launch, uint64_t issued) {
    double n = a.instructions;
    if (launch.ctas_completed > 0)
        n = static_cast<double>(launch.cta_instructions) / static_cast<double>(launch.ctas_completed) *
            static_cast<double>(launch.num_ctas());
    return std::max(n, static_cast<double>(issued));
}

}  // namespace stacksim::sched
