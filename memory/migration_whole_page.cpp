// SPDX-License-Identifier: Apache-2.0
// Whole-page migration: a fault moves the whole page (the baseline of paper 002).
#include "memory/migration_mechanism.h"

namespace stacksim::memory {

namespace {

class WholePage final : public MigrationMechanism {
public:
    explicit WholePage(uint64_t page_bytes) : m_page(page_bytes) {}
    std::vector<ByteRange> plan(const ValidRanges& present, uint64_t, uint64_t) const override {
        return present.missing(0, m_page);
    }
    bool whole_page() const override { return true; }

private:
    uint64_t m_page;
};

const bool registered = migration_mechanisms().add("whole_page", "the whole page migrates on a fault (baseline)",
                                                   [](uint64_t page) { return std::make_unique<WholePage>(page); });

}  // namespace

}  // namespace stacksim::memory
