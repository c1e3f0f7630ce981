// SPDX-License-Identifier: Apache-2.0
// Control and warp-collective instructions: bra ret/exit bar membar/fence shfl vote activemask.
#include "core/ops_common.h"

namespace stacksim::core::ops {

// bra: every lane that executes (guard true) takes the branch; the SM handles divergence.
void exec_bra(const Instruction&, WarpExecContext&, uint32_t mask, ExecResult& out) {
    out.taken_mask = mask;
}

// ret / exit: the executing lanes (out.active_mask) leave; the SM retires them.
void exec_exit(const Instruction&, WarpExecContext&, uint32_t, ExecResult&) {}

// trap / brkpt (__trap(), __brkpt()): a lane that executes one stops the run with one message
// naming the PTX file and line and the CUDA source line of -lineinfo builds.
void exec_trap(const Instruction& in, WarpExecContext&, uint32_t mask, ExecResult&) {
    if (!mask) return;
    const std::string what = std::string(in.name()) == "trap" ? "trap: the kernel executed __trap()"
                                                               : "brkpt: the kernel hit a breakpoint (__brkpt())";
    fail(in, what + (in.src_line ? " at CUDA source line " + std::to_string(in.src_line) : std::string()));
}

// bar.sync, barrier.sync, membar, fence: no functional effect (the SM models the barrier).
void exec_nop(const Instruction&, WarpExecContext&, uint32_t, ExecResult&) {}

// shfl.sync.mode.b32 d[|p], a, b, c, membermask. All source values are read before any
// lane writes, so d may alias a. A lane whose source is out of range reads its own a.
void exec_shfl(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    std::array<uint32_t, kWarpSize> a{};
    for (unsigned l = 0; l < kWarpSize; ++l) a[l] = read<uint32_t>(in.src[0], w, l);
    const auto mode = static_cast<ShflMode>(in.mode);
    for_lanes(mask, [&](unsigned l) {
        uint32_t b = read<uint32_t>(in.src[1], w, l) & 0x1F;
        uint32_t c = read<uint32_t>(in.src[2], w, l);
        int seg = int((c >> 8) & 0x1F);
        int max_lane = (int(l) & seg) | (int(c & 0x1F) & ~seg);
        int min_lane = int(l) & seg;
        int j = 0;
        bool pval = false;
        switch (mode) {
        case ShflMode::Up: j = int(l) - int(b); pval = j >= max_lane; break;
        case ShflMode::Down: j = int(l) + int(b); pval = j <= max_lane; break;
        case ShflMode::Bfly: j = int(l ^ b); pval = j <= max_lane; break;
        case ShflMode::Idx: j = min_lane | (int(b) & ~seg); pval = j <= max_lane; break;
        }
        if (!pval || j < 0 || j >= int(kWarpSize)) j = int(l);
        write<uint32_t>(in.dst[0], w, l, a[unsigned(j)]);
        if (in.num_dst > 1) write<bool>(in.dst[1], w, l, pval);
    });
}

// vote.sync.{all,any,uni}.pred d, a, m and vote.sync.ballot.b32 d, a, m over the executing lanes.
void exec_vote(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    uint32_t ballot = 0;
    for_lanes(mask, [&](unsigned l) {
        if (read_pred(in.src[0], w, l)) ballot |= 1u << l;
    });
    uint64_t v = 0;
    switch (static_cast<VoteMode>(in.mode)) {
    case VoteMode::All: v = ballot == mask; break;
    case VoteMode::Any: v = ballot != 0; break;
    case VoteMode::Uni: v = ballot == 0 || ballot == mask; break;
    case VoteMode::Ballot: v = ballot; break;
    }
    for_lanes(mask, [&](unsigned l) { w.reg(in.dst[0].reg, l) = v; });
}

// activemask.b32 d: the lanes executing this instruction.
void exec_activemask(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    for_lanes(mask, [&](unsigned l) { w.reg(in.dst[0].reg, l) = mask; });
}

}  // namespace stacksim::core::ops
