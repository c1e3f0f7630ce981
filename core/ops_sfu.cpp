// SPDX-License-Identifier: Apache-2.0
// Special-function-unit operations: sqrt rsqrt rcp ex2 lg2 sin cos tanh.
// .approx forms return the correctly rounded libm value of the exact function.
#include "core/ops_common.h"

namespace stacksim::core::ops {
namespace {

/// d = f(a) over the float type, with .ftz on input and output and .sat.
template <class Op> inline void float_unop(const Instruction& in, WarpExecContext& w, uint32_t mask, Op&& op) {
    with_float(in, in.type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        for_lanes(mask, [&](unsigned l) {
            T a = read<T>(in.src[0], w, l);
            if (in.ftz) a = flush(a);
            write<T>(in.dst[0], w, l, finish_float(in, T(op(a))));
        });
    });
}

}  // namespace

void exec_sqrt(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    float_unop(in, w, mask, [&](auto a) {
        using T = decltype(a);
        return rounded<T>(in.rounding, [&] { return std::sqrt(a); });
    });
}

void exec_rsqrt(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    float_unop(in, w, mask, [&](auto a) {
        using T = decltype(a);
        if constexpr (std::is_same_v<T, float>) return float(1.0 / std::sqrt(double(a)));
        else return 1.0 / std::sqrt(a);
    });
}

void exec_rcp(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    float_unop(in, w, mask, [&](auto a) {
        using T = decltype(a);
        return rounded<T>(in.rounding, [&] { return T(1) / a; });
    });
}

void exec_ex2(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    float_unop(in, w, mask, [](auto a) { return std::exp2(a); });
}

void exec_lg2(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    float_unop(in, w, mask, [](auto a) { return std::log2(a); });
}

void exec_sin(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    float_unop(in, w, mask, [](auto a) { return std::sin(a); });
}

void exec_cos(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    float_unop(in, w, mask, [](auto a) { return std::cos(a); });
}

void exec_tanh(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult&) {
    float_unop(in, w, mask, [](auto a) { return std::tanh(a); });
}

}  // namespace stacksim::core::ops
