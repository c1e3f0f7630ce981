// SPDX-License-Identifier: Apache-2.0
// Comparisons, selection and moves: setp set selp mov.
#include "core/ops_common.h"
#include "core/ptx_compare.h"

namespace stacksim::core::ops {
namespace {

/// Low `bytes` bytes set.
inline uint64_t width_mask(unsigned bytes) { return bytes >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * bytes)) - 1; }


/// Calls f(lane, t) with the comparison result of each lane.
template <class F> inline void compare_lanes(const Instruction& in, WarpExecContext& w, uint32_t mask, F&& f) {
    with_num(in, in.type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        const auto c = static_cast<CmpOp>(in.cmp);
        for_lanes(mask, [&](unsigned l) {
            T a = read<T>(in.src[0], w, l), b = read<T>(in.src[1], w, l);
            if (in.ftz) a = flush(a), b = flush(b);
            f(l, compare(c, a, b));
        });
    });
}

}  // namespace

// setp.cmp[.bop].type p[|q], a, b[, c]: p = cmp(a,b) bop c, q = !cmp(a,b) bop c.
void exec_setp(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    if (is_half_type(in.type)) return exec_half_compare(in, w, mask, true);
    const bool has_c = in.bool_op != uint8_t(BoolOp::None), has_q = in.num_dst > 1;
    compare_lanes(in, w, mask, [&](unsigned l, bool t) {
        bool c = has_c ? read_pred(in.src[2], w, l) : false;
        write<bool>(in.dst[0], w, l, has_c ? combine(in.bool_op, t, c) : t);
        if (has_q) write<bool>(in.dst[1], w, l, has_c ? combine(in.bool_op, !t, c) : !t);
    });
}

// set.cmp[.bop].dtype.stype d, a, b[, c]: `type` is the compare type, `src_type` the
// destination type; d = 1.0f (f32) or all ones (integers) when true, else 0.
void exec_set(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    if (is_half_type(in.type)) return exec_half_compare(in, w, mask, false);
    const bool has_c = in.bool_op != uint8_t(BoolOp::None);
    const uint64_t one = in.src_type == DataType::F32 ? to_bits(1.0f) : 0xFFFFFFFFull;
    compare_lanes(in, w, mask, [&](unsigned l, bool t) {
        if (has_c) t = combine(in.bool_op, t, read_pred(in.src[2], w, l));
        w.reg(in.dst[0].reg, l) = t ? one : 0;
    });
}

// selp.type d, a, b, c: d = c ? a : b.
void exec_selp(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    const uint64_t m = width_mask(type_bytes(in.type));
    for_lanes(mask, [&](unsigned l) {
        const Operand& s = read_pred(in.src[2], w, l) ? in.src[0] : in.src[1];
        w.reg(in.dst[0].reg, l) = read_raw(s, w, l) & m;
    });
}

// mov.type d, a: copies the type's bits. mov.b64 d, {lo, hi} packs and mov.b64 {lo, hi}, a
// unpacks (likewise b32 from two b16).
void exec_mov(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    const unsigned bytes = type_bytes(in.type);
    const uint64_t m = width_mask(bytes);
    const Operand& d = in.dst[0];
    const Operand& s = in.src[0];
    if (in.type == DataType::Pred) {
        for_lanes(mask, [&](unsigned l) { write<bool>(d, w, l, read_pred(s, w, l)); });
    } else if (s.kind == Operand::Kind::Vector) {
        const unsigned eb = bytes / s.vec_len;
        const uint64_t em = width_mask(eb);
        for_lanes(mask, [&](unsigned l) {
            uint64_t v = 0;
            for (unsigned k = 0; k < s.vec_len; ++k) v |= (w.reg(s.vec[k], l) & em) << (8 * eb * k);
            w.reg(d.reg, l) = v;
        });
    } else if (d.kind == Operand::Kind::Vector) {
        const unsigned eb = bytes / d.vec_len;
        const uint64_t em = width_mask(eb);
        for_lanes(mask, [&](unsigned l) {
            uint64_t v = read_raw(s, w, l);
            for (unsigned k = 0; k < d.vec_len; ++k)
                if (d.vec[k] != kNoReg) w.reg(d.vec[k], l) = (v >> (8 * eb * k)) & em;
        });
    } else {
        for_lanes(mask, [&](unsigned l) { w.reg(d.reg, l) = read_raw(s, w, l) & m; });
    }
}

}  // namespace stacksim::core::ops
