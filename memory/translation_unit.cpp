// SPDX-License-Identifier: Apache-2.0
// Per-SM address translation between the SM and its L1.
#include "memory/translation_unit.h"

#include <algorithm>

namespace stacksim::memory {

TranslationUnit::TranslationUnit(sc_core::sc_module_name name, const UvmConfig& cfg, Gmmu& gmmu,
                                 sim::ClockDomain& clock, sim::StatRegistry& stats)
    : sc_module(name), upstream("upstream"), downstream("downstream"), m_cfg(cfg), m_gmmu(gmmu), m_clock(clock),
      m_tlb(cfg.l1_tlb_entries, cfg.l1_tlb_ways) {
    upstream.register_nb_transport_fw(this, &TranslationUnit::nb_transport_fw);
    downstream.register_nb_transport_bw(this, &TranslationUnit::nb_transport_bw);
    m_id = gmmu.attach([this](tlm::tlm_generic_payload& p) { replay(p); },
                       [this](uint64_t vpn) { invalidate(vpn); });
    sim::StatGroup g(stats, std::string(this->name()));
    g.add("hits", m_hits, "L1 TLB hits", "lookups");
    g.add("misses", m_misses, "L1 TLB misses (including those merged with a miss under way)", "lookups");
    g.add("merged_misses", m_merged, "misses to a page whose translation was already on its way", "lookups");
    g.add("held_by_gmmu", m_held, "requests held by the GMMU until their bytes migrated", "requests");
    g.add("blocking_stalls", m_blocking_stalls, "cycles lookups stopped behind a miss (MSHRs full or no hit under miss)", "cycles");
    g.add_formula("miss_rate", [this] {
        double h = static_cast<double>(m_hits.value()), m = static_cast<double>(m_misses.value());
        return h + m ? m / (h + m) : 0.0;
    }, "L1 TLB miss rate", "ratio");
}

tlm::tlm_sync_enum TranslationUnit::nb_transport_fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                                    sc_core::sc_time&) {
    if (phase != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;
    m_clock.activate(*this);
    if (m_in.size() >= m_cfg.queue_depth) {
        m_upstream_blocked = &p;
        return tlm::TLM_ACCEPTED;
    }
    m_in.push_back(&p);
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
}

tlm::tlm_sync_enum TranslationUnit::nb_transport_bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& phase,
                                                    sc_core::sc_time& d) {
    if (phase == tlm::END_REQ) {
        if (&p == m_blocked) m_blocked = nullptr;
        m_clock.activate(*this);
        return tlm::TLM_ACCEPTED;
    }
    if (phase == tlm::BEGIN_RESP) {
        if (&p == m_blocked) {
            m_blocked = nullptr;
            m_clock.activate(*this);
        }
        upstream->nb_transport_bw(p, phase, d);
        return tlm::TLM_COMPLETED;
    }
    return tlm::TLM_ACCEPTED;
}

void TranslationUnit::replay(tlm::tlm_generic_payload& p) {
    m_out.push_back(&p);
    m_clock.activate(*this);
}

void TranslationUnit::invalidate(uint64_t vpn) {
    m_tlb.invalidate(vpn);
    m_fills.erase(vpn);
}

uint64_t TranslationUnit::next_fill(uint64_t cycle) const {
    uint64_t best = ~uint64_t{0};
    for (auto& [v, c] : m_fills)
        if (c > cycle) best = std::min(best, c);
    return best;
}

bool TranslationUnit::tick(uint64_t cycle) {
    const PageTable& table = m_gmmu.page_table();
    // L1 TLB lookups, in order.
    bool stalled = false;
    for (uint32_t port = 0; port < m_cfg.l1_tlb_ports && !m_in.empty(); ++port) {
        tlm::tlm_generic_payload* p = m_in.front();
        const uint64_t vpn = table.vpn(p->get_address());
        auto fill = m_fills.find(vpn);
        if (fill != m_fills.end() && fill->second <= cycle) m_fills.erase(fill), fill = m_fills.end();
        if (!m_cfg.hit_under_miss) {
            // Without hit under miss, nothing passes an outstanding miss to another page.
            bool other = false;
            for (auto& [v, c] : m_fills) other |= c > cycle && v != vpn;
            if (other) {
                stalled = true;
                ++m_blocking_stalls;
                break;
            }
        }
        uint64_t ready;
        if (fill != m_fills.end()) {
            ++m_misses;
            ++m_merged;
            m_tlb.lookup(vpn);
            ready = fill->second;
        } else if (m_tlb.lookup(vpn)) {
            ++m_hits;
            ready = cycle + m_cfg.l1_tlb_latency;
        } else {
            size_t outstanding = 0;
            for (auto& [v, c] : m_fills) outstanding += c > cycle;
            if (outstanding >= m_cfg.l1_tlb_mshrs) {
                stalled = true;
                ++m_blocking_stalls;
                break;
            }
            ++m_misses;
            ready = m_gmmu.translation().translate(vpn, cycle + m_cfg.l1_tlb_latency);
            m_tlb.insert(vpn);
            m_fills[vpn] = ready;
        }
        m_in.pop_front();
        m_ready.push({ready, m_seq++, p});
    }
    if (m_upstream_blocked && m_in.size() < m_cfg.queue_depth) {
        tlm::tlm_generic_payload* p = m_upstream_blocked;
        m_upstream_blocked = nullptr;
        m_in.push_back(p);
        tlm::tlm_phase ph = tlm::END_REQ;
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        upstream->nb_transport_bw(*p, ph, d);
    }
    // Translated: ask the GMMU whether the bytes are on the GPU.
    while (!m_ready.empty() && m_ready.top().cycle <= cycle) {
        tlm::tlm_generic_payload* p = m_ready.top().p;
        m_ready.pop();
        if (m_gmmu.access(m_id, *p)) m_out.push_back(p);
        else ++m_held;
    }
    // Downstream, one request per port and cycle, honouring END_REQ.
    for (uint32_t n = 0; n < m_cfg.l1_tlb_ports && !m_out.empty() && !m_blocked; ++n) {
        tlm::tlm_generic_payload* p = m_out.front();
        m_out.pop_front();
        tlm::tlm_phase ph = tlm::BEGIN_REQ;
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        tlm::tlm_sync_enum s = downstream->nb_transport_fw(*p, ph, d);
        if (s == tlm::TLM_ACCEPTED || (s == tlm::TLM_UPDATED && ph == tlm::BEGIN_REQ)) {
            m_blocked = p;
        } else if (s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && ph == tlm::BEGIN_RESP)) {
            tlm::tlm_phase rp = tlm::BEGIN_RESP;
            upstream->nb_transport_bw(*p, rp, d);
        }
    }
    if ((!m_in.empty() && !stalled) || (!m_out.empty() && !m_blocked)) return true;
    uint64_t next = m_ready.empty() ? ~uint64_t{0} : m_ready.top().cycle;
    if (stalled) next = std::min(next, next_fill(cycle));
    if (next != ~uint64_t{0}) {
        if (next <= cycle + 1) return true;
        m_clock.wake_at(*this, next);
    }
    return false;
}

}  // namespace stacksim::memory
