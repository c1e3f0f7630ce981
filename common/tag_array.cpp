// SPDX-License-Identifier: Apache-2.0
// Set-associative, sectored tag array with a replacement policy from the registry (plain C++).
#include "common/tag_array.h"

namespace stacksim::common {

ReplacementRegistry& replacement_policies() {
    static ReplacementRegistry registry("replacement policy", "cache replacement policies: the victim line of a full set");
    return registry;
}

TagArray::TagArray(const TagArrayGeometry& g)
    : m_geo(g), m_policy(replacement_policies().create(g.replacement)), m_sets(g.sets() ? g.sets() : 1) {
    m_ways.resize(size_t{m_sets} * g.ways);
    m_policy->reset(m_sets, g.ways);
}

uint32_t TagArray::set_of(uint64_t line) const {
    uint64_t n = line / m_geo.line_bytes;
    if (m_geo.hashed_sets) n ^= (n >> 7) ^ (n >> 13) ^ (n >> 19);
    return static_cast<uint32_t>(n % m_sets);
}

int64_t TagArray::find(uint64_t line) const {
    const size_t base = size_t{set_of(line)} * m_geo.ways;
    for (uint32_t i = 0; i < m_geo.ways; ++i)
        if (m_ways[base + i].valid && m_ways[base + i].tag == line) return static_cast<int64_t>(base + i);
    return -1;
}

uint32_t TagArray::lookup(uint64_t addr, bool touch) {
    const int64_t i = find(line_of(addr));
    if (i < 0) return 0;
    if (touch) m_policy->touch(static_cast<uint32_t>(i / m_geo.ways), static_cast<uint32_t>(i % m_geo.ways));
    return m_ways[i].valid;
}

std::optional<Eviction> TagArray::fill(uint64_t addr, uint32_t sectors, uint32_t owner) {
    const uint64_t line = line_of(addr);
    if (const int64_t i = find(line); i >= 0) {
        m_ways[i].valid |= sectors;
        m_policy->touch(static_cast<uint32_t>(i / m_geo.ways), static_cast<uint32_t>(i % m_geo.ways));
        return std::nullopt;
    }
    const uint32_t set = set_of(line);
    Way* ways = &m_ways[size_t{set} * m_geo.ways];
    uint32_t victim = m_geo.ways;
    for (uint32_t i = 0; i < m_geo.ways; ++i)
        if (!ways[i].valid) {
            victim = i;
            break;
        }
    if (victim == m_geo.ways) victim = m_policy->victim(set);
    std::optional<Eviction> ev;
    Way& w = ways[victim];
    if (w.valid) ev = Eviction{w.tag, w.valid, w.dirty, w.owner};
    w = Way{line, sectors, 0, owner};
    m_policy->insert(set, victim);
    return ev;
}

void TagArray::mark_dirty(uint64_t addr, uint32_t sectors) {
    if (const int64_t i = find(line_of(addr)); i >= 0) m_ways[i].dirty |= sectors & m_ways[i].valid;
}

void TagArray::invalidate(uint64_t addr, uint32_t sectors) {
    if (const int64_t i = find(line_of(addr)); i >= 0) {
        Way& w = m_ways[i];
        w.valid &= ~sectors;
        w.dirty &= ~sectors;
        if (!w.valid) {
            w = Way{};
            m_policy->invalidate(static_cast<uint32_t>(i / m_geo.ways), static_cast<uint32_t>(i % m_geo.ways));
        }
    }
}

}  // namespace stacksim::common
