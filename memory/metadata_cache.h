// SPDX-License-Identifier: Apache-2.0
// The LCP metadata cache of one memory controller: pages whose metadata is on chip (plain C++).
#pragma once
#include <cstdint>
#include <list>
#include <unordered_map>

namespace stacksim::memory {

/// Fully associative, LRU, one entry per page.
class MetadataCache {
public:
    /// `entries`: pages held (>= 1).
    explicit MetadataCache(uint32_t entries) : m_entries(entries) {}
    /// Looks `vpn` up and makes it most recent; on a miss it is filled (evicting the LRU page).
    /// True on a hit.
    bool access(uint64_t vpn);
    /// Drops `vpn` (its page left GPU memory).
    void invalidate(uint64_t vpn);
    uint32_t capacity() const { return m_entries; }

private:
    uint32_t m_entries;
    std::list<uint64_t> m_lru;  ///< most recent first
    std::unordered_map<uint64_t, std::list<uint64_t>::iterator> m_where;
};

}  // namespace stacksim::memory
