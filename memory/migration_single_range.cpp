// SPDX-License-Identifier: Apache-2.0
// Single-valid-range partial page migration (paper 002 §4.1).
#include <algorithm>

#include "memory/migration_mechanism.h"

namespace stacksim::memory {

namespace {

/// One contiguous valid range: a request beyond it also migrates the gap.
class SingleRange final : public MigrationMechanism {
public:
    explicit SingleRange(uint64_t page_bytes) : m_page(page_bytes) {}
    std::vector<ByteRange> plan(const ValidRanges& present, uint64_t lo, uint64_t hi) const override {
        if (!present.empty()) {
            lo = std::min(lo, present.ranges().front().lo);
            hi = std::max(hi, present.ranges().back().hi);
        }
        return present.missing(lo, std::min(hi, m_page));
    }

private:
    uint64_t m_page;
};

const bool registered =
    migration_mechanisms().add("single_range", "partial migration, one valid range per page (gaps migrated)",
                               [](uint64_t page) { return std::make_unique<SingleRange>(page); });

}  // namespace

}  // namespace stacksim::memory
