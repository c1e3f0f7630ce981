// SPDX-License-Identifier: Apache-2.0
// Multiple-valid-range partial page migration in units (paper 002 §4.2).
#include "memory/migration_mechanism.h"
#include "sim/error.h"

namespace stacksim::memory {

namespace {

/// Parameters of multi_range ([uvm.multi_range]).
struct MultiRangeParams {
    uint64_t migration_unit_bytes = 1024;
    uint64_t gap_threshold_bytes = 4096;
    uint32_t max_ranges = 4;
    static const sim::Params<MultiRangeParams>& params() {
        using C = MultiRangeParams;
        static const auto p = [] {
            sim::Params<C> p;
            p.add("migration_unit_bytes", &C::migration_unit_bytes, "bytes",
                  "unit of the valid-range bitmap; requests are rounded out to it (at most the page size)")
                .range(32, 2097152)
                .power_of_two();
            p.add("gap_threshold_bytes", &C::gap_threshold_bytes, "bytes", "a gap smaller than this is migrated too")
                .range(0, 2097152);
            p.add("max_ranges", &C::max_ranges, "ranges", "valid ranges per page at most (the smallest gaps fill)")
                .range(1, 4096);
            return p;
        }();
        return p;
    }
};

/// Several valid ranges in migration units: small gaps are filled, at most max_ranges are kept
/// by filling the smallest gaps.
class MultiRange final : public MigrationMechanism {
public:
    MultiRange(const MultiRangeParams& p, uint64_t page_bytes) : m_p(p), m_page(page_bytes) {
        if (p.migration_unit_bytes > page_bytes)
            throw sim::ConfigError("uvm.multi_range.migration_unit_bytes: must not exceed uvm.page_bytes");
    }
    std::vector<ByteRange> plan(const ValidRanges& present, uint64_t lo, uint64_t hi) const override {
        const uint64_t u = m_p.migration_unit_bytes;
        lo = lo / u * u;
        hi = std::min((hi + u - 1) / u * u, m_page);
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
            if (best_gap >= m_p.gap_threshold_bytes && r.size() <= m_p.max_ranges) break;
            target.add({r[best].hi, r[best + 1].lo});
        }
        std::vector<ByteRange> out;
        for (const ByteRange& t : target.ranges())
            for (const ByteRange& m : present.missing(t.lo, t.hi)) out.push_back(m);
        return out;
    }

private:
    MultiRangeParams m_p;
    uint64_t m_page;
};

const bool registered = migration_mechanisms().add_with<MultiRangeParams>(
    "multi_range", "partial migration in units, several valid ranges per page",
    [](const MultiRangeParams& p, uint64_t page) { return std::make_unique<MultiRange>(p, page); });

}  // namespace

}  // namespace stacksim::memory
