// SPDX-License-Identifier: Apache-2.0
// The shared part of address translation: L2 TLB, page-walk cache, pool of walkers.
#include "memory/translation_service.h"

#include <algorithm>
#include <stdexcept>

namespace stacksim::memory {

TranslationService::TranslationService(const UvmConfig& cfg, const PageTable& table)
    : m_cfg(cfg), m_table(table), m_memory(cfg.walk_reads == WalkReads::Memory), m_l2(cfg.l2_tlb_entries, cfg.l2_tlb_ways),
      m_pwc(cfg.pwc_entries, cfg.pwc_ways), m_walker_free(cfg.walkers, 0), m_idle_walkers(cfg.walkers) {}

uint32_t TranslationService::attach(Client c) {
    m_clients.push_back(std::move(c));
    return static_cast<uint32_t>(m_clients.size() - 1);
}

uint64_t TranslationService::port_slot(uint64_t cycle) {
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
    return m_port_cycle + m_cfg.l2_tlb_latency;
}

void TranslationService::invalidate(uint64_t vpn) {
    m_l2.invalidate(vpn);
    auto it = m_by_vpn.find(vpn);
    if (it != m_by_vpn.end()) m_active.at(it->second).fill_l2 = false;
}

uint64_t TranslationService::translate(uint64_t vpn, uint64_t cycle) {
    const uint64_t looked_up = port_slot(cycle);
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

std::optional<uint64_t> TranslationService::request(uint32_t client, uint64_t vpn, uint64_t cycle) {
    if (!m_memory) return translate(vpn, cycle);
    const uint64_t looked_up = port_slot(cycle);
    auto it = m_by_vpn.find(vpn);
    if (it != m_by_vpn.end()) {
        ++m_merged;
        m_active.at(it->second).waiters.push_back({client, looked_up});
        return std::nullopt;
    }
    if (m_l2.lookup(vpn)) return looked_up;
    const uint64_t id = m_next_id++;
    Walk& w = m_active[id];
    w.vpn = vpn;
    w.issuer = client;
    w.looked_up = looked_up;
    w.waiters.push_back({client, looked_up});
    m_by_vpn[vpn] = id;
    ++m_walks;
    if (m_idle_walkers > 0) {
        --m_idle_walkers;
        start(id, looked_up);
    } else {
        m_queue.push_back(id);
    }
    return std::nullopt;
}

void TranslationService::start(uint64_t id, uint64_t cycle) {
    Walk& w = m_active.at(id);
    m_wait_cycles += cycle - w.looked_up;
    advance(id, cycle);
}

void TranslationService::advance(uint64_t id, uint64_t cycle) {
    Walk& w = m_active.at(id);
    // Upper levels found in the walk cache cost pwc_latency each; the first one missing it
    // (or the leaf) is read from memory.
    while (w.level + 1 < m_table.levels() && m_pwc.lookup(m_table.level_key(w.vpn, w.level))) {
        cycle += m_cfg.pwc_latency;
        ++w.level;
    }
    w.read_issued = cycle;
    ++m_pte_reads;
    m_clients.at(w.issuer).read(id, m_table.pte_address(w.vpn, w.level), cycle);
}

void TranslationService::pte_read_done(uint64_t id, uint64_t cycle) {
    auto it = m_active.find(id);
    if (it == m_active.end()) throw std::logic_error("translation service: response to an unknown walk");
    Walk& w = it->second;
    m_pte_read_cycles += cycle - w.read_issued;
    if (w.level + 1 < m_table.levels()) {
        m_pwc.insert(m_table.level_key(w.vpn, w.level));
        ++w.level;
        advance(id, cycle);
    } else {
        finish(id, cycle);
    }
}

void TranslationService::finish(uint64_t id, uint64_t cycle) {
    auto node = m_active.extract(id);
    Walk& w = node.mapped();
    m_by_vpn.erase(w.vpn);
    m_walk_cycles += cycle - w.looked_up;
    if (w.fill_l2) m_l2.insert(w.vpn);
    // The freed walker takes the oldest queued walk before anyone is told (callbacks may
    // start new walks).
    if (!m_queue.empty()) {
        const uint64_t next = m_queue.front();
        m_queue.pop_front();
        start(next, std::max(cycle, m_active.at(next).looked_up));
    } else {
        ++m_idle_walkers;
    }
    // One answer per client, at the later of the walk's end and its own lookup.
    std::vector<std::pair<uint32_t, uint64_t>> answers;
    for (const Waiter& x : w.waiters) {
        auto a = std::find_if(answers.begin(), answers.end(), [&](auto& p) { return p.first == x.client; });
        if (a == answers.end()) answers.emplace_back(x.client, std::max(cycle, x.earliest));
        else a->second = std::max(a->second, std::max(cycle, x.earliest));
    }
    for (auto& [client, at] : answers) m_clients.at(client).done(w.vpn, at);
}

}  // namespace stacksim::memory
