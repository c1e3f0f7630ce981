// SPDX-License-Identifier: Apache-2.0
// Conversions: cvt (int<->int, int<->float, float<->float) and cvta (address spaces).
#include <limits>

#include "core/ops_common.h"

namespace stacksim::core::ops {
namespace {

/// Rounds a float to an integral value with an integer rounding modifier (.rzi when absent).
template <class S> inline S round_integral(uint8_t r, S v) {
    switch (static_cast<RoundMode>(r)) {
    case RoundMode::Rni: case RoundMode::Rn: return std::nearbyint(v);
    case RoundMode::Rmi: case RoundMode::Rm: return std::floor(v);
    case RoundMode::Rpi: case RoundMode::Rp: return std::ceil(v);
    default: return std::trunc(v);
    }
}

/// Converts a value of source type S to destination type D with PTX cvt semantics.
template <class D, class S> inline D convert(const Instruction& in, S v) {
    if constexpr (!kIsFloat<D> && !kIsFloat<S>) {
        if (in.sat) {  // clamp to the destination range
            __int128 x = v;
            __int128 lo = std::numeric_limits<D>::min(), hi = std::numeric_limits<D>::max();
            return static_cast<D>(x < lo ? lo : (x > hi ? hi : x));
        }
        return static_cast<D>(v);  // truncate, or sign/zero-extend by the source's signedness
    } else if constexpr (!kIsFloat<D>) {
        // float -> int: round, NaN -> 0, saturate to the destination range.
        double r = round_integral(in.rounding, double(in.ftz ? flush(v) : v));
        if (std::isnan(r)) return D(0);
        if (r >= double(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
        if (r <= double(std::numeric_limits<D>::min())) return std::numeric_limits<D>::min();
        return static_cast<D>(r);
    } else if constexpr (!kIsFloat<S>) {
        // int -> float with .rn (default) .rz .rm .rp
        return finish_float(in, rounded<D>(in.rounding, [&] { return static_cast<D>(v); }));
    } else {
        if (in.ftz) v = flush(v);
        D r;
        if constexpr (std::is_same_v<D, S>) {
            r = static_cast<RoundMode>(in.rounding) >= RoundMode::Rni ? round_integral(in.rounding, v) : v;
        } else {
            r = rounded<D>(in.rounding, [&] { return static_cast<D>(v); });
        }
        return finish_float(in, r);
    }
}

}  // namespace

// cvt[.rnd][.ftz][.sat].dtype.atype d, a  (type = dtype, src_type = atype)
void exec_cvt(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    if (is_half_type(in.type) || is_half_type(in.src_type)) return exec_half_cvt(in, w, mask);
    with_num(in, in.type, [&](auto dtag) {
        using D = typename decltype(dtag)::type;
        with_num(in, in.src_type, [&](auto stag) {
            using S = typename decltype(stag)::type;
            for_lanes(mask, [&](unsigned l) {
                write<D>(in.dst[0], w, l, convert<D, S>(in, read<S>(in.src[0], w, l)));
            });
        });
    });
}

// cvta.space.size d, a (space -> generic) and cvta.to.space.size d, a (generic -> space).
// .global is the identity; .shared moves by kSharedWindowBase.
void exec_cvta(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    uint64_t delta = in.space == StateSpace::Shared ? kSharedWindowBase
                     : in.space == StateSpace::Local ? kLocalWindowBase
                                                     : 0;
    if (in.mode == kCvtaToSpace) delta = uint64_t(0) - delta;
    const bool narrow = type_bytes(in.type) == 4;
    for_lanes(mask, [&](unsigned l) {
        uint64_t v = read_raw(in.src[0], w, l) + delta;
        w.reg(in.dst[0].reg, l) = narrow ? uint32_t(v) : v;
    });
}

}  // namespace stacksim::core::ops
