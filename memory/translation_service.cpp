// SPDX-License-Identifier: Apache-2.0
// The shared part of address translation: L2 TLB, page-walk cache, pool of walkers.
#include "memory/translation_service.h"

#include <algorithm>

namespace stacksim::memory {

TranslationService::TranslationService(const UvmConfig& cfg, const PageTable& table)
    : m_cfg(cfg), m_table(table), m_l2(cfg.l2_tlb_entries, cfg.l2_tlb_ways), m_pwc(cfg.pwc_entries, cfg.pwc_ways),
      m_walker_free(cfg.walkers, 0) {}

uint64_t TranslationService::translate(uint64_t vpn, uint64_t cycle) {
    // L2 TLB ports: at most l2_tlb_ports lookups per cycle, later ones slip to the next.
    if (cycle > m_port_cycle) {
        m_port_cycle = cycle;
        m_port_used = 0;
    }
    if (m_port_used == m_cfg.l2_tlb_ports) {
        ++m_port_cycle;
        m_port_used = 0;
    }
    ++m_port_used;
    const uint64_t looked_up = m_port_cycle + m_cfg.l2_tlb_latency;
    auto it = m_inflight.find(vpn);
    if (it != m_inflight.end() && it->second > m_port_cycle) {
        ++m_merged;
        return std::max(it->second, looked_up);
    }
    if (m_l2.lookup(vpn)) return looked_up;
    auto w = std::min_element(m_walker_free.begin(), m_walker_free.end());
    const uint64_t start = std::max(*w, looked_up);
    m_wait_cycles += start - looked_up;
    uint64_t t = start;
    const uint32_t levels = m_table.levels();
    for (uint32_t l = 0; l + 1 < levels; ++l) {
        const uint64_t key = m_table.level_key(vpn, l);
        if (m_pwc.lookup(key)) {
            t += m_cfg.pwc_latency;
        } else {
            t += m_cfg.walk_memory_latency;
            m_pwc.insert(key);
        }
    }
    t += m_cfg.walk_memory_latency;  // the leaf entry
    *w = t;
    ++m_walks;
    m_walk_cycles += t - looked_up;
    m_l2.insert(vpn);
    m_inflight[vpn] = t;
    if (m_inflight.size() > 4096) {
        for (auto i = m_inflight.begin(); i != m_inflight.end();)
            i = i->second <= m_port_cycle ? m_inflight.erase(i) : std::next(i);
    }
    return t;
}

}  // namespace stacksim::memory
