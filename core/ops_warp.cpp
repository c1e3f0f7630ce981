// SPDX-License-Identifier: Apache-2.0
// Warp-level instructions and special registers for real CUDA code: match redux nanosleep bmsk,
// %lanemask_*, %globaltimer, %nsmid, %gridid, %envreg*, %dynamic_smem_size, %total_smem_size.
#include "core/ops_common.h"

namespace stacksim::core::ops {

uint64_t special_value_ext(SpecialReg s, const WarpExecContext& w, unsigned lane) {
    const CtaExecContext& c = *w.cta;
    const uint32_t bit = 1u << lane;
    const uint64_t ns = w.clock * c.clock_period_ps / 1000;
    switch (s) {
    case SpecialReg::LanemaskEq: return bit;
    case SpecialReg::LanemaskLt: return bit - 1;
    case SpecialReg::LanemaskLe: return uint32_t(bit | (bit - 1));
    case SpecialReg::LanemaskGt: return uint32_t(~(bit | (bit - 1)));
    case SpecialReg::LanemaskGe: return uint32_t(~(bit - 1));
    case SpecialReg::GlobalTimer: return ns;
    case SpecialReg::GlobalTimerLo: return uint32_t(ns);
    case SpecialReg::GlobalTimerHi: return uint32_t(ns >> 32);
    case SpecialReg::ClockHi: return uint32_t(w.clock >> 32);
    case SpecialReg::NSmId: return c.num_sms;
    case SpecialReg::GridId: return c.grid_id;
    case SpecialReg::DynamicSmemSize: return c.dynamic_smem;
    case SpecialReg::TotalSmemSize: return c.shared.size();
    default: break;
    }
    if (s >= SpecialReg::EnvReg0 && s <= SpecialReg::EnvReg31) {
        // The driver passes a cooperative launch's grid-barrier address in %envreg1 (high
        // word) and %envreg2 (low word); cooperative_groups::this_grid() reads them.
        const unsigned n = unsigned(s) - unsigned(SpecialReg::EnvReg0);
        if (n == 1) return uint32_t(c.grid_workspace >> 32);
        if (n == 2) return uint32_t(c.grid_workspace);
    }
    return 0;
}

// match.{any,all}.sync.{b32,b64} d[|p], a, membermask. any: d = the lanes (executing and in
// membermask) whose a equals this lane's; all: d = membermask and p = true when all those lanes
// agree, else d = 0 and p = false.
void exec_match(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    std::array<uint64_t, kWarpSize> a{};
    const bool wide = type_bytes(in.type) == 8;
    for_lanes(mask, [&](unsigned l) {
        a[l] = wide ? read<uint64_t>(in.src[0], w, l) : read<uint32_t>(in.src[0], w, l);
    });
    const bool all = static_cast<VoteMode>(in.mode) == VoteMode::All;
    for_lanes(mask, [&](unsigned l) {
        const uint32_t group = mask & read<uint32_t>(in.src[1], w, l);
        uint32_t same = 0;
        for_lanes(group, [&](unsigned o) {
            if (a[o] == a[l]) same |= 1u << o;
        });
        if (!all) {
            write<uint32_t>(in.dst[0], w, l, same);
            return;
        }
        const bool agree = same == group;
        write<uint32_t>(in.dst[0], w, l, agree ? group : 0);
        if (in.num_dst > 1) write<bool>(in.dst[1], w, l, agree);
    });
}

// redux.sync.op.type d, a, membermask: .add/.min/.max on .u32/.s32, .and/.or/.xor on .b32,
// over the executing lanes of membermask. The sum wraps modulo 2^32.
void exec_redux(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    const auto op = static_cast<AtomOp>(in.mode);
    const bool is_signed = in.type == DataType::S32;
    for_lanes(mask, [&](unsigned l) {
        const uint32_t group = mask & read<uint32_t>(in.src[1], w, l);
        bool first = true;
        uint32_t acc = 0;
        for_lanes(group, [&](unsigned o) {
            const uint32_t v = read<uint32_t>(in.src[0], w, o);
            if (first) {
                acc = v;
                first = false;
                return;
            }
            switch (op) {
            case AtomOp::Add: acc += v; break;
            case AtomOp::Min: acc = is_signed ? uint32_t(std::min(int32_t(acc), int32_t(v))) : std::min(acc, v); break;
            case AtomOp::Max: acc = is_signed ? uint32_t(std::max(int32_t(acc), int32_t(v))) : std::max(acc, v); break;
            case AtomOp::And: acc &= v; break;
            case AtomOp::Or: acc |= v; break;
            case AtomOp::Xor: acc ^= v; break;
            default: fail(in, "unsupported redux operation");
            }
        });
        write<uint32_t>(in.dst[0], w, l, acc);
    });
}

// nanosleep.u32 t: the warp sleeps for t ns (hardware picks a time in [0, 2t]; we take t, the
// largest over the executing lanes). The SM turns sleep_ns into cycles.
void exec_nanosleep(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult& out) {
    uint32_t t = 0;
    for_lanes(mask, [&](unsigned l) { t = std::max(t, read<uint32_t>(in.src[0], w, l)); });
    out.sleep_ns = std::min<uint32_t>(t, 1'000'000);  // PTX: at most 1 ms
}

// bmsk.{clamp,wrap}.b32 d, a, b: a mask of b bits starting at bit a (PTX ISA 7.6 semantics).
void exec_bmsk(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    const bool clamp = in.mode & kShfClamp;
    for_lanes(mask, [&](unsigned l) {
        const uint32_t a = read<uint32_t>(in.src[0], w, l), b = read<uint32_t>(in.src[1], w, l);
        const uint32_t a1 = a & 0x1F, b1 = b & 0x1F, sum = a1 + b1;
        uint32_t mask0 = ~0u << a1;
        uint32_t mask1 = sum >= 32 ? 0 : ~0u << sum;
        bool overflow = sum >= 32;
        if (clamp && a >= 32) {
            overflow = true;
            mask0 = 0;
        }
        if (clamp && b >= 32) overflow = true;
        if (overflow) mask1 = 0;
        else if (b1 == 0) mask1 = ~0u;
        write<uint32_t>(in.dst[0], w, l, mask0 & ~mask1);
    });
}

}  // namespace stacksim::core::ops
