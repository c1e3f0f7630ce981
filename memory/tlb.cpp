// SPDX-License-Identifier: Apache-2.0
// A set-associative, LRU translation cache keyed by page number.
#include "memory/tlb.h"

#include <stdexcept>

namespace stacksim::memory {

Tlb::Tlb(uint32_t entries, uint32_t ways) : m_sets(ways ? entries / ways : 0), m_ways(ways) {
    if (ways == 0 || entries == 0 || entries % ways) throw std::invalid_argument("Tlb: entries must be a multiple of ways");
    m_entries.resize(entries);
}

Tlb::Entry* Tlb::find(uint64_t key) {
    Entry* set = &m_entries[(key % m_sets) * m_ways];
    for (uint32_t w = 0; w < m_ways; ++w)
        if (set[w].valid && set[w].key == key) return &set[w];
    return nullptr;
}

bool Tlb::lookup(uint64_t key) {
    if (Entry* e = find(key)) {
        e->last_use = ++m_clock;
        ++m_hits;
        return true;
    }
    ++m_misses;
    return false;
}

void Tlb::insert(uint64_t key) {
    if (Entry* e = find(key)) {
        e->last_use = ++m_clock;
        return;
    }
    Entry* set = &m_entries[(key % m_sets) * m_ways];
    Entry* victim = &set[0];
    for (uint32_t w = 0; w < m_ways; ++w) {
        if (!set[w].valid) {
            victim = &set[w];
            break;
        }
        if (set[w].last_use < victim->last_use) victim = &set[w];
    }
    *victim = {key, ++m_clock, true};
}

void Tlb::invalidate(uint64_t key) {
    if (Entry* e = find(key)) e->valid = false;
}

void Tlb::flush() {
    for (Entry& e : m_entries) e.valid = false;
}

}  // namespace stacksim::memory
