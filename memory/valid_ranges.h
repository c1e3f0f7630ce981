// SPDX-License-Identifier: Apache-2.0
// The byte ranges of one page that are valid in GPU memory (plain C++).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace stacksim::memory {

/// A half-open byte range [lo, hi) within a page.
struct ByteRange {
    uint64_t lo = 0, hi = 0;
    uint64_t bytes() const { return hi - lo; }
    bool operator==(const ByteRange& o) const { return lo == o.lo && hi == o.hi; }
};

/// Sorted, disjoint, non-adjacent ranges (adding a touching range merges them).
class ValidRanges {
public:
    void add(ByteRange r);
    void add(const ValidRanges& other);
    /// Removes exactly the bytes of `r` (splitting a range if needed).
    void remove(ByteRange r);
    void clear() { m_ranges.clear(); }
    bool covers(uint64_t lo, uint64_t hi) const;
    /// The parts of [lo, hi) not covered, in address order.
    std::vector<ByteRange> missing(uint64_t lo, uint64_t hi) const;
    uint64_t bytes() const;
    size_t count() const { return m_ranges.size(); }
    bool empty() const { return m_ranges.empty(); }
    const std::vector<ByteRange>& ranges() const { return m_ranges; }

private:
    std::vector<ByteRange> m_ranges;
};

}  // namespace stacksim::memory
