// SPDX-License-Identifier: Apache-2.0
// The byte ranges of one page that are valid in GPU memory.
#include "memory/valid_ranges.h"

#include <algorithm>

namespace stacksim::memory {

void ValidRanges::add(ByteRange r) {
    if (r.lo >= r.hi) return;
    std::vector<ByteRange> out;
    out.reserve(m_ranges.size() + 1);
    bool placed = false;
    for (const ByteRange& x : m_ranges) {
        if (x.hi < r.lo) {
            out.push_back(x);
        } else if (r.hi < x.lo) {
            if (!placed) out.push_back(r), placed = true;
            out.push_back(x);
        } else {  // overlapping or touching: absorb
            r.lo = std::min(r.lo, x.lo);
            r.hi = std::max(r.hi, x.hi);
        }
    }
    if (!placed) out.push_back(r);
    m_ranges = std::move(out);
}

void ValidRanges::add(const ValidRanges& other) {
    for (const ByteRange& r : other.m_ranges) add(r);
}

void ValidRanges::remove(ByteRange r) {
    std::vector<ByteRange> out;
    for (const ByteRange& x : m_ranges) {
        if (x.hi <= r.lo || r.hi <= x.lo) {
            out.push_back(x);
            continue;
        }
        if (x.lo < r.lo) out.push_back({x.lo, r.lo});
        if (r.hi < x.hi) out.push_back({r.hi, x.hi});
    }
    m_ranges = std::move(out);
}

bool ValidRanges::covers(uint64_t lo, uint64_t hi) const {
    if (lo >= hi) return true;
    for (const ByteRange& x : m_ranges)
        if (x.lo <= lo && hi <= x.hi) return true;
    return false;
}

std::vector<ByteRange> ValidRanges::missing(uint64_t lo, uint64_t hi) const {
    std::vector<ByteRange> out;
    uint64_t at = lo;
    for (const ByteRange& x : m_ranges) {
        if (x.hi <= at) continue;
        if (x.lo >= hi) break;
        if (x.lo > at) out.push_back({at, x.lo});
        at = std::max(at, x.hi);
        if (at >= hi) break;
    }
    if (at < hi) out.push_back({at, hi});
    return out;
}

uint64_t ValidRanges::bytes() const {
    uint64_t n = 0;
    for (const ByteRange& x : m_ranges) n += x.bytes();
    return n;
}

}  // namespace stacksim::memory
