// SPDX-License-Identifier: Apache-2.0
// Set-associative, sectored tag array with a replacement policy from the registry (plain C++).
#include "memory/tag_array.h"

#include "sim/error.h"

namespace stacksim::memory {

namespace {
class Lru : public ReplacementPolicy {
public:
    uint64_t victim_key(uint64_t last_use, uint64_t) const override { return last_use; }
};
class Fifo : public ReplacementPolicy {
public:
    uint64_t victim_key(uint64_t, uint64_t filled) const override { return filled; }
};
}  // namespace

const ReplacementRegistry& replacement_registry() {
    static const ReplacementRegistry registry = [] {
        ReplacementRegistry r("replacement policy");
        r.add("lru", "least recently used line", [] { return std::make_unique<Lru>(); });
        r.add("fifo", "oldest filled line", [] { return std::make_unique<Fifo>(); });
        return r;
    }();
    return registry;
}

TagArray::TagArray(const TagArrayGeometry& g)
    : m_geo(g), m_policy(replacement_registry().create(g.replacement)), m_sets(g.sets() ? g.sets() : 1) {
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
        if (m_policy->victim_key(ways[i].last_use, ways[i].filled) <
            m_policy->victim_key(victim->last_use, victim->filled))
            victim = &ways[i];
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

}  // namespace stacksim::memory
