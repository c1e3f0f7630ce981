// SPDX-License-Identifier: Apache-2.0
// bar.red (__syncthreads_count, __syncthreads_and, __syncthreads_or): a CTA barrier that also
// reduces a predicate over the CTA's threads.
#include "core/ops_common.h"

namespace stacksim::core {

namespace ops {

// bar.red.popc.u32 d, a{, b}, {!}c / bar.red.{and,or}.pred p, a{, b}, {!}c. Each executing
// lane adds its predicate to the CTA's reduction; the SM treats the instruction as a barrier
// (ControlKind::Barrier) and writes the result when the barrier releases
// (finish_barrier_reduction).
void exec_bar_red(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    CtaExecContext::BarrierReduction& r = w.cta->bar_red;
    const Operand& c = in.src[in.num_src - 1];
    for_lanes(mask, [&](unsigned l) {
        const bool p = read_pred(c, w, l);
        r.count += p;
        r.all = r.all && p;
        r.any = r.any || p;
    });
    w.bar_red_dst = in.dst[0].reg;
    w.bar_red_op = in.mode;
    w.bar_red_lanes = mask;
}

}  // namespace ops

void finish_barrier_reduction(WarpExecContext& w) {
    if (w.bar_red_dst == kNoReg) return;
    const CtaExecContext::BarrierReduction& r = w.cta->bar_red;
    uint64_t v = 0;
    switch (static_cast<BarRedOp>(w.bar_red_op)) {
    case BarRedOp::Popc: v = r.count; break;
    case BarRedOp::And: v = r.all; break;
    case BarRedOp::Or: v = r.any; break;
    }
    ops::for_lanes(w.bar_red_lanes, [&](unsigned l) { w.reg(w.bar_red_dst, l) = v; });
    w.bar_red_dst = kNoReg;
}

}  // namespace stacksim::core
