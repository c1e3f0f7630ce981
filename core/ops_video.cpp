// SPDX-License-Identifier: Apache-2.0
// SIMD video instructions on the bytes (vop4) or half-words (vop2) of a 32-bit word:
// vadd vsub vavrg vabsdiff vmin vmax, with the secondary merge or accumulate (.add) operation.
#include <algorithm>

#include "core/ops_common.h"

namespace stacksim::core::ops {
namespace {

enum class VideoOp : uint8_t { Add, Sub, Avrg, Absdiff, Min, Max };

/// PTX ISA "SIMD video instructions" with the default selectors (a's elements from a, b's
/// from b, .asel/.bsel operand selectors are rejected by the front end) and the default mask
/// (every element): t[i] = op(Va[i], Vb[i]) over elements sign- or zero-extended by the a/b
/// types; .sat clamps t[i] to the destination element's range. Merge: element i of d is t[i]
/// (truncated); .add: d = c + sum(t[i]).
template <unsigned kElems> void video(const Instruction& in, WarpExecContext& w, uint32_t mask, VideoOp op) {
    constexpr unsigned bits = 32 / kElems;
    constexpr uint32_t emask = (1u << bits) - 1;
    const bool a_signed = in.src_type == DataType::S32;
    const bool b_signed = (in.mode & kVideoBSigned) != 0;
    const bool d_signed = in.type == DataType::S32;
    const bool accumulate = (in.mode & kVideoAdd) != 0;
    auto element = [&](uint32_t v, unsigned i, bool sgn) -> int64_t {
        const uint32_t e = (v >> (i * bits)) & emask;
        return sgn ? int64_t(int32_t(e << (32 - bits)) >> (32 - bits)) : int64_t(e);
    };
    for_lanes(mask, [&](unsigned l) {
        const uint32_t a = read<uint32_t>(in.src[0], w, l), b = read<uint32_t>(in.src[1], w, l);
        const uint32_t c = read<uint32_t>(in.src[2], w, l);
        uint32_t d = accumulate ? c : 0;
        for (unsigned i = 0; i < kElems; ++i) {
            const int64_t x = element(a, i, a_signed), y = element(b, i, b_signed);
            int64_t t = 0;
            switch (op) {
            case VideoOp::Add: t = x + y; break;
            case VideoOp::Sub: t = x - y; break;
            case VideoOp::Avrg: t = (x + y) >= 0 ? (x + y + 1) >> 1 : (x + y) >> 1; break;
            case VideoOp::Absdiff: t = x > y ? x - y : y - x; break;
            case VideoOp::Min: t = std::min(x, y); break;
            case VideoOp::Max: t = std::max(x, y); break;
            }
            if (in.sat) {
                const int64_t lo = d_signed ? -(int64_t(1) << (bits - 1)) : 0;
                const int64_t hi = d_signed ? (int64_t(1) << (bits - 1)) - 1 : int64_t(emask);
                t = std::clamp(t, lo, hi);
            }
            if (accumulate) d += static_cast<uint32_t>(t);
            else d |= (static_cast<uint32_t>(t) & emask) << (i * bits);
        }
        write<uint32_t>(in.dst[0], w, l, d);
    });
}

}  // namespace

#define STACKSIM_VIDEO(name, n, op)                                                      \
    void exec_##name(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) { \
        video<n>(in, w, mask, VideoOp::op);                                              \
    }
STACKSIM_VIDEO(vadd4, 4, Add)
STACKSIM_VIDEO(vsub4, 4, Sub)
STACKSIM_VIDEO(vavrg4, 4, Avrg)
STACKSIM_VIDEO(vabsdiff4, 4, Absdiff)
STACKSIM_VIDEO(vmin4, 4, Min)
STACKSIM_VIDEO(vmax4, 4, Max)
STACKSIM_VIDEO(vadd2, 2, Add)
STACKSIM_VIDEO(vsub2, 2, Sub)
STACKSIM_VIDEO(vavrg2, 2, Avrg)
STACKSIM_VIDEO(vabsdiff2, 2, Absdiff)
STACKSIM_VIDEO(vmin2, 2, Min)
STACKSIM_VIDEO(vmax2, 2, Max)
#undef STACKSIM_VIDEO

}  // namespace stacksim::core::ops
