// SPDX-License-Identifier: Apache-2.0
// Software IEEE binary16 (f16) and bfloat16 (bf16): exact decoding and correctly rounded
// encoding in every PTX rounding mode, the reference of the half-precision instructions.
#pragma once
#include <cstdint>

#include "core/instruction.h"

namespace stacksim::core {

/// A 16-bit float format.
enum class HalfKind : uint8_t {
    F16,   ///< IEEE binary16: 1 sign, 5 exponent, 10 fraction bits
    BF16,  ///< bfloat16: 1 sign, 8 exponent, 7 fraction bits (the top half of an f32)
};

/// The canonical NaN GPUs produce for 16-bit float results.
constexpr uint16_t kHalfCanonicalNaN = 0x7FFF;

/// The exact value of the 16-bit pattern `h`.
double half_to_double(uint16_t h, HalfKind k);

/// `x` rounded to format `k` with rounding `rm` (Rn/None: nearest even, Rz, Rm, Rp; the
/// integer modes count as their float counterparts). Overflow gives infinity or the largest
/// finite value as IEEE 754 prescribes for the mode; NaN gives kHalfCanonicalNaN.
uint16_t half_from_double(double x, HalfKind k, RoundMode rm);

/// An integer rounded to format `k` with rounding `rm` (exact for every 64-bit value).
uint16_t half_from_int(bool negative, uint64_t magnitude, HalfKind k, RoundMode rm);

/// Whether `h` is a NaN / a subnormal of format `k`.
bool half_is_nan(uint16_t h, HalfKind k);
bool half_is_subnormal(uint16_t h, HalfKind k);

/// `op()` evaluated in double precision with round-to-odd: the truncated result with its last
/// bit set when inexact. Rounding that to a format of at most 51 significant bits is correctly
/// rounded in every mode (no double-rounding error), so an f16/bf16 fma computed this way is
/// exact.
double round_to_odd(double (*op)(double, double, double), double a, double b, double c);

}  // namespace stacksim::core
