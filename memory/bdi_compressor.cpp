// SPDX-License-Identifier: Apache-2.0
// Base-Delta-Immediate (BDI) compression of one 64-byte line.
#include "memory/bdi_compressor.h"

#include <cstring>

namespace stacksim::memory {

namespace {

// Little-endian value of `bytes` bytes, sign-extended to 64 bits.
int64_t value_at(const uint8_t* p, uint32_t bytes) {
    uint64_t v = 0;
    std::memcpy(&v, p, bytes);
    if (bytes < 8) {
        const uint64_t sign = uint64_t{1} << (bytes * 8 - 1);
        v = (v ^ sign) - sign;
    }
    return static_cast<int64_t>(v);
}

// True if `d` (a difference of two sign-extended `value_bytes`-byte values, taken modulo
// 2^(8 value_bytes) as hardware does) fits in a signed `delta_bytes`-byte field.
bool delta_fits(int64_t a, int64_t b, uint32_t value_bytes, uint32_t delta_bytes) {
    uint64_t d = static_cast<uint64_t>(a) - static_cast<uint64_t>(b);
    if (value_bytes < 8) {
        const uint32_t bits = value_bytes * 8;
        d &= (uint64_t{1} << bits) - 1;
        const uint64_t sign = uint64_t{1} << (bits - 1);
        d = (d ^ sign) - sign;
    }
    const int64_t s = static_cast<int64_t>(d);
    const int64_t lim = int64_t{1} << (delta_bytes * 8 - 1);
    return s >= -lim && s < lim;
}

}  // namespace

const char* bdi_encoding_name(BdiEncoding e) {
    switch (e) {
    case BdiEncoding::Zeros: return "zeros";
    case BdiEncoding::Repeated: return "repeated";
    case BdiEncoding::Base8Delta1: return "base8_delta1";
    case BdiEncoding::Base4Delta1: return "base4_delta1";
    case BdiEncoding::Base8Delta2: return "base8_delta2";
    case BdiEncoding::Base2Delta1: return "base2_delta1";
    case BdiEncoding::Base4Delta2: return "base4_delta2";
    case BdiEncoding::Base8Delta4: return "base8_delta4";
    case BdiEncoding::Uncompressed: return "uncompressed";
    }
    return "?";
}

uint32_t BdiCompressor::size(BdiEncoding e) {
    switch (e) {
    case BdiEncoding::Zeros: return 1;
    case BdiEncoding::Repeated: return 8;
    case BdiEncoding::Base8Delta1: return 8 + 8 * 1;
    case BdiEncoding::Base4Delta1: return 4 + 16 * 1;
    case BdiEncoding::Base8Delta2: return 8 + 8 * 2;
    case BdiEncoding::Base2Delta1: return 2 + 32 * 1;
    case BdiEncoding::Base4Delta2: return 4 + 16 * 2;
    case BdiEncoding::Base8Delta4: return 8 + 8 * 4;
    case BdiEncoding::Uncompressed: return kLineBytes;
    }
    return kLineBytes;
}

bool BdiCompressor::fits(const uint8_t* line, uint32_t base_bytes, uint32_t delta_bytes) {
    // Each value is a small delta from zero (immediate) or from the base: the first value
    // that is not an immediate.
    bool have_base = false;
    int64_t base = 0;
    for (uint32_t i = 0; i < kLineBytes; i += base_bytes) {
        const int64_t v = value_at(line + i, base_bytes);
        if (delta_fits(v, 0, base_bytes, delta_bytes)) continue;
        if (!have_base) {
            have_base = true;
            base = v;
            continue;
        }
        if (!delta_fits(v, base, base_bytes, delta_bytes)) return false;
    }
    return true;
}

BdiEncoding BdiCompressor::compress(const uint8_t* line) {
    static const uint8_t zeros[kLineBytes] = {};
    if (std::memcmp(line, zeros, kLineBytes) == 0) return BdiEncoding::Zeros;
    bool repeated = true;
    for (uint32_t i = 8; i < kLineBytes && repeated; i += 8) repeated = std::memcmp(line, line + i, 8) == 0;
    if (repeated) return BdiEncoding::Repeated;
    struct Candidate {
        BdiEncoding e;
        uint32_t base, delta;
    };
    static const Candidate order[] = {
        {BdiEncoding::Base8Delta1, 8, 1}, {BdiEncoding::Base4Delta1, 4, 1}, {BdiEncoding::Base8Delta2, 8, 2},
        {BdiEncoding::Base2Delta1, 2, 1}, {BdiEncoding::Base4Delta2, 4, 2}, {BdiEncoding::Base8Delta4, 8, 4},
    };
    for (const Candidate& c : order)
        if (fits(line, c.base, c.delta)) return c.e;
    return BdiEncoding::Uncompressed;
}

}  // namespace stacksim::memory
