// SPDX-License-Identifier: Apache-2.0
// Set-associative, sectored tag array with LRU replacement (plain C++, no timing).
#include "memory/tag_array.h"

#include "sim/error.h"

namespace stacksim::memory {

TagArray::TagArray(const TagArrayGeometry& g) : m_geo(g), m_sets(g.sets() ? g.sets() : 1) {
    m_ways.resize(size_t{m_sets} * g.ways);
}

uint64_t TagArray::set_of(uint64_t line) const {
    uint64_t n = line / m_geo.line_bytes;
    if (m_geo.hashed_sets) n ^= (n >> 7) ^ (n >> 13) ^ (n >> 19);
    return n % m_sets;
}

TagArray::Way* TagArray::find(uint64_t line) {
    uint64_t set = set_of(line);
    Way* w = &m_ways[set * m_geo.ways];
    for (uint32_t i = 0; i < m_geo.ways; ++i)
        if (w[i].valid && w[i].tag == line) return &w[i];
    return nullptr;
}

uint32_t TagArray::lookup(uint64_t addr, bool touch) {
    Way* w = find(line_of(addr));
    if (!w) return 0;
    if (touch) w->last_use = ++m_clock;
    return w->valid;
}

std::optional<Eviction> TagArray::fill(uint64_t addr, uint32_t sectors, uint32_t owner) {
    uint64_t line = line_of(addr);
    if (Way* w = find(line)) {
        w->valid |= sectors;
        w->last_use = ++m_clock;
        return std::nullopt;
    }
    uint64_t set = set_of(line);
    Way* ways = &m_ways[set * m_geo.ways];
    Way* victim = &ways[0];
    for (uint32_t i = 0; i < m_geo.ways; ++i) {
        if (!ways[i].valid) {
            victim = &ways[i];
            break;
        }
        const bool older = m_geo.replacement == Replacement::Fifo ? ways[i].filled < victim->filled
                                                                   : ways[i].last_use < victim->last_use;
        if (older) victim = &ways[i];
    }
    std::optional<Eviction> ev;
    if (victim->valid) ev = Eviction{victim->tag, victim->valid, victim->dirty, victim->owner};
    ++m_clock;
    *victim = Way{line, sectors, 0, m_clock, m_clock, owner};
    return ev;
}

void TagArray::mark_dirty(uint64_t addr, uint32_t sectors) {
    if (Way* w = find(line_of(addr))) w->dirty |= sectors & w->valid;
}

void TagArray::invalidate(uint64_t addr, uint32_t sectors) {
    if (Way* w = find(line_of(addr))) {
        w->valid &= ~sectors;
        w->dirty &= ~sectors;
        if (!w->valid) *w = Way{};
    }
}

const std::vector<std::string>& replacement_names() {
    static const std::vector<std::string> names = {"fifo", "lru"};
    return names;
}

Replacement replacement_by_name(const std::string& name) {
    if (name == "lru") return Replacement::Lru;
    if (name == "fifo") return Replacement::Fifo;
    throw sim::ConfigError("replacement: '" + name + "' is not one of: fifo, lru");
}

}  // namespace stacksim::memory
