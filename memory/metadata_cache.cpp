// SPDX-License-Identifier: Apache-2.0
// The LCP metadata cache of one memory controller.
#include "memory/metadata_cache.h"

namespace stacksim::memory {

bool MetadataCache::access(uint64_t vpn) {
    auto it = m_where.find(vpn);
    if (it != m_where.end()) {
        m_lru.splice(m_lru.begin(), m_lru, it->second);
        return true;
    }
    if (m_lru.size() >= m_entries) {
        m_where.erase(m_lru.back());
        m_lru.pop_back();
    }
    m_lru.push_front(vpn);
    m_where[vpn] = m_lru.begin();
    return false;
}

void MetadataCache::invalidate(uint64_t vpn) {
    auto it = m_where.find(vpn);
    if (it == m_where.end()) return;
    m_lru.erase(it->second);
    m_where.erase(it);
}

}  // namespace stacksim::memory
