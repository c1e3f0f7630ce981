// SPDX-License-Identifier: Apache-2.0
// A set-associative, LRU translation cache keyed by page number (plain C++): TLBs, walk cache.
#pragma once
#include <cstdint>
#include <vector>

namespace stacksim::memory {

/// Tags only (timing model): which keys are cached. `ways` = `entries` is fully associative.
class Tlb {
public:
    Tlb(uint32_t entries, uint32_t ways);
    /// True if `key` is cached (touches LRU).
    bool lookup(uint64_t key);
    /// Caches `key`, replacing the set's least recently used entry if full.
    void insert(uint64_t key);
    void invalidate(uint64_t key);
    void flush();
    uint64_t hits() const { return m_hits; }
    uint64_t misses() const { return m_misses; }

private:
    struct Entry {
        uint64_t key = 0;
        uint64_t last_use = 0;
        bool valid = false;
    };
    Entry* find(uint64_t key);
    uint32_t m_sets, m_ways;
    std::vector<Entry> m_entries;  ///< set-major
    uint64_t m_clock = 0, m_hits = 0, m_misses = 0;
};

}  // namespace stacksim::memory
