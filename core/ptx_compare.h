// SPDX-License-Identifier: Apache-2.0
// PTX comparison semantics (setp, set; their half-precision forms in ops_half.cpp).
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "core/instruction.h"
#include "core/ops_common.h"

namespace stacksim::core::ops {

/// PTX comparison of two values of type T. Ordered float comparisons are false when an
/// operand is NaN; the unordered (*u) forms are true.
template <class T> inline bool compare(CmpOp c, T a, T b) {
    if constexpr (kIsFloat<T>) {
        const bool nan = std::isnan(a) || std::isnan(b);
        switch (c) {
        case CmpOp::Eq: return a == b;
        case CmpOp::Ne: return !nan && a != b;
        case CmpOp::Lt: return a < b;
        case CmpOp::Le: return a <= b;
        case CmpOp::Gt: return a > b;
        case CmpOp::Ge: return a >= b;
        case CmpOp::Equ: return nan || a == b;
        case CmpOp::Neu: return nan || a != b;
        case CmpOp::Ltu: return nan || a < b;
        case CmpOp::Leu: return nan || a <= b;
        case CmpOp::Gtu: return nan || a > b;
        case CmpOp::Geu: return nan || a >= b;
        case CmpOp::Num: return !nan;
        case CmpOp::Nan: return nan;
        default: return false;
        }
    } else {
        using UT = std::make_unsigned_t<T>;
        switch (c) {
        case CmpOp::Eq: return a == b;
        case CmpOp::Ne: return a != b;
        case CmpOp::Lt: return a < b;
        case CmpOp::Le: return a <= b;
        case CmpOp::Gt: return a > b;
        case CmpOp::Ge: return a >= b;
        case CmpOp::Lo: return UT(a) < UT(b);
        case CmpOp::Ls: return UT(a) <= UT(b);
        case CmpOp::Hi: return UT(a) > UT(b);
        case CmpOp::Hs: return UT(a) >= UT(b);
        default: return false;
        }
    }
}

/// Combines a comparison result `t` with predicate `c` by the instruction's boolean op.
inline bool combine(uint8_t op, bool t, bool c) {
    switch (static_cast<BoolOp>(op)) {
    case BoolOp::And: return t && c;
    case BoolOp::Or: return t || c;
    case BoolOp::Xor: return t != c;
    case BoolOp::None: break;
    }
    return t;
}

}  // namespace stacksim::core::ops
