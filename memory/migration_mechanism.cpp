// SPDX-License-Identifier: Apache-2.0
// Whole-page, single-valid-range and multiple-valid-range migration (paper 002 §4).
#include "memory/migration_mechanism.h"

#include <algorithm>

namespace stacksim::memory {

namespace {

/// The ranges of `target` not in `present`.
std::vector<ByteRange> difference(const ValidRanges& target, const ValidRanges& present) {
    std::vector<ByteRange> out;
    for (const ByteRange& t : target.ranges())
        for (const ByteRange& m : present.missing(t.lo, t.hi)) out.push_back(m);
    return out;
}

class WholePage final : public MigrationMechanism {
public:
    explicit WholePage(const MigrationParams& p) : m_p(p) {}
    std::vector<ByteRange> plan(const ValidRanges& present, uint64_t, uint64_t) const override {
        return present.missing(0, m_p.page_bytes);
    }
    bool whole_page() const override { return true; }

private:
    MigrationParams m_p;
};

/// One contiguous valid range: a request beyond it also migrates the gap (paper §4.1).
class SingleRange final : public MigrationMechanism {
public:
    explicit SingleRange(const MigrationParams& p) : m_p(p) {}
    std::vector<ByteRange> plan(const ValidRanges& present, uint64_t lo, uint64_t hi) const override {
        if (!present.empty()) {
            lo = std::min(lo, present.ranges().front().lo);
            hi = std::max(hi, present.ranges().back().hi);
        }
        return present.missing(lo, std::min(hi, m_p.page_bytes));
    }

private:
    MigrationParams m_p;
};

/// Several valid ranges in migration units: small gaps are filled, at most max_ranges are kept
/// by filling the smallest gaps (paper §4.2).
class MultiRange final : public MigrationMechanism {
public:
    explicit MultiRange(const MigrationParams& p) : m_p(p) {}
    std::vector<ByteRange> plan(const ValidRanges& present, uint64_t lo, uint64_t hi) const override {
        const uint64_t u = m_p.unit_bytes;
        lo = lo / u * u;
        hi = std::min((hi + u - 1) / u * u, m_p.page_bytes);
        ValidRanges target = present;
        target.add({lo, hi});
        // Fill gaps under the threshold, then the smallest gaps until the range limit holds.
        for (;;) {
            const auto& r = target.ranges();
            size_t best = r.size();
            uint64_t best_gap = ~uint64_t{0};
            for (size_t i = 0; i + 1 < r.size(); ++i) {
                uint64_t gap = r[i + 1].lo - r[i].hi;
                if (gap < best_gap) best_gap = gap, best = i;
            }
            if (best == r.size()) break;
            if (best_gap >= m_p.gap_threshold && r.size() <= m_p.max_ranges) break;
            target.add({r[best].hi, r[best + 1].lo});
        }
        return difference(target, present);
    }

private:
    MigrationParams m_p;
};

MigrationRegistry build() {
    MigrationRegistry r("migration mechanism");
    r.add("whole_page", "the whole page migrates on a fault (baseline)",
          [](const MigrationParams& p) { return std::make_unique<WholePage>(p); });
    r.add("single_range", "partial migration, one valid range per page (gaps migrated)",
          [](const MigrationParams& p) { return std::make_unique<SingleRange>(p); });
    r.add("multi_range", "partial migration in units, several valid ranges per page",
          [](const MigrationParams& p) { return std::make_unique<MultiRange>(p); });
    return r;
}

}  // namespace

const MigrationRegistry& migration_registry() {
    static const MigrationRegistry r = build();
    return r;
}

}  // namespace stacksim::memory
