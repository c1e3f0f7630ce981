// SPDX-License-Identifier: Apache-2.0
// Base-Delta-Immediate (BDI) compression of one 64-byte line (plain C++).
#pragma once
#include <cstdint>

namespace stacksim::memory {

/// The BDI encodings (Pekhimenko et al., PACT 2012), smallest first. BaseKDeltaD: the line as
/// 64/K values of K bytes, each stored as a D-byte signed delta from one explicit base (the
/// first value not encodable from zero) or from the implicit zero base.
enum class BdiEncoding : uint8_t {
    Zeros,           ///< all 64 bytes zero
    Repeated,        ///< one 8-byte value repeated
    Base8Delta1,
    Base4Delta1,
    Base8Delta2,
    Base2Delta1,
    Base4Delta2,
    Base8Delta4,
    Uncompressed,
};
const char* bdi_encoding_name(BdiEncoding e);

/// BDI on real bytes: compress() picks the smallest encoding that holds the line exactly.
class BdiCompressor {
public:
    static constexpr uint32_t kLineBytes = 64;

    /// Compressed size of a line stored as `e`, bytes (the encoding itself lives in metadata):
    /// zeros 1, repeated 8, B8D1 16, B4D1 20, B8D2 24, B2D1 34, B4D2 36, B8D4 40, raw 64.
    static uint32_t size(BdiEncoding e);
    /// The smallest encoding that represents the 64 bytes at `line` without loss.
    static BdiEncoding compress(const uint8_t* line);
    /// True if the line is encodable as base-`base_bytes` delta-`delta_bytes`.
    static bool fits(const uint8_t* line, uint32_t base_bytes, uint32_t delta_bytes);
};

}  // namespace stacksim::memory
