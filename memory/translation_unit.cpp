// SPDX-License-Identifier: Apache-2.0
// Per-SM address translation between the SM and its L1.
#include "memory/translation_unit.h"

#include <algorithm>
#include <optional>


namespace stacksim::memory {

TranslationUnit::TranslationUnit(sc_core::sc_module_name name, const UvmConfig& cfg, Gmmu& gmmu,
                                 sim::ClockDomain& clock, sim::StatRegistry& stats, uint32_t line_bytes,
                                 uint32_t sector_bytes)
    : sc_module(name), upstream("upstream", cfg.queue_depth), downstream("downstream"), m_cfg(cfg), m_gmmu(gmmu),
      m_clock(clock), m_line_bytes(line_bytes), m_sector_bytes(sector_bytes),
      m_tlb(cfg.l1_tlb_entries, cfg.l1_tlb_ways) {
    upstream.on_request([this] { m_clock.activate(*this); });
    downstream.on_end_req([this] { m_clock.activate(*this); });
    downstream.on_response([this](tlm::tlm_generic_payload& p) { response(p); });
    m_id = gmmu.attach([this](tlm::tlm_generic_payload& p) { replay(p); },
                       [this](uint64_t vpn) { invalidate(vpn); });
    TranslationService::Client client;
    client.done = [this](uint64_t vpn, uint64_t cycle) { walk_done(vpn, cycle); };
    client.read = [this](uint64_t walk, uint64_t addr, uint64_t cycle) {
        m_walk_sched.push({cycle, m_seq++, walk, addr});
        m_clock.activate(*this);
    };
    m_walk_client = gmmu.translation().attach(std::move(client));
    sim::StatGroup g(stats, std::string(this->name()));
    g.add("hits", m_hits, "L1 TLB hits", "lookups");
    g.add("misses", m_misses, "L1 TLB misses (including those merged with a miss under way)", "lookups");
    g.add("merged_misses", m_merged, "misses to a page whose translation was already on its way", "lookups");
    g.add("held_by_gmmu", m_held, "requests held by the GMMU until their bytes migrated", "requests");
    g.add("blocking_stalls", m_blocking_stalls, "cycles lookups stopped behind a miss (MSHRs full or no hit under miss)", "cycles");
    g.add("pte_reads", m_pte_reads, "page-table entry reads this unit sent for walks (walk_reads = memory)", "requests");
    g.add("pte_read_latency", m_pte_latency, "page-table entry read: sent to response", "cycles");
    g.add_formula("miss_rate", [this] {
        double h = static_cast<double>(m_hits.value()), m = static_cast<double>(m_misses.value());
        return h + m ? m / (h + m) : 0.0;
    }, "L1 TLB miss rate", "ratio");
}

void TranslationUnit::response(tlm::tlm_generic_payload& p) {
    if (sim::PayloadPool::ext(p).traffic == sim::TrafficClass::PageWalk && m_walk_payloads.count(&p))
        walk_response(p, m_clock.cycle());
    else
        upstream.respond(p);  // the SM's request, straight back
}

void TranslationUnit::replay(tlm::tlm_generic_payload& p) {
    m_out.push_back(&p);
    m_clock.activate(*this);
}

void TranslationUnit::walk_response(tlm::tlm_generic_payload& p, uint64_t cycle) {
    auto it = m_walk_payloads.find(&p);
    const uint64_t walk = it->second;
    m_walk_payloads.erase(it);
    m_pte_latency.sample(static_cast<double>(cycle - sim::PayloadPool::ext(p).issue_cycle));
    p.release();
    m_gmmu.translation().pte_read_done(walk, cycle);
}

void TranslationUnit::walk_done(uint64_t vpn, uint64_t cycle) {
    auto f = m_fills.find(vpn);
    if (f != m_fills.end() && f->second == kPending) set_fill(vpn, cycle);
    auto parked = m_parked.find(vpn);
    if (parked != m_parked.end()) {
        for (auto& [seq, p] : parked->second) m_ready.push({cycle, seq, p});
        m_parked.erase(parked);
    }
    m_clock.activate(*this);
}

void TranslationUnit::invalidate(uint64_t vpn) {
    m_tlb.invalidate(vpn);
    auto f = m_fills.find(vpn);
    if (f != m_fills.end()) erase_fill(f);
}

void TranslationUnit::set_fill(uint64_t vpn, uint64_t c) {
    auto [it, inserted] = m_fills.try_emplace(vpn, c);
    if (!inserted) {
        if (it->second != kPending) m_fill_ends.erase({it->second, vpn});
        it->second = c;
    }
    if (c != kPending) m_fill_ends.insert({c, vpn});
}

void TranslationUnit::erase_fill(std::unordered_map<uint64_t, uint64_t>::iterator it) {
    if (it->second != kPending) m_fill_ends.erase({it->second, it->first});
    m_fills.erase(it);
}

void TranslationUnit::prune_fills(uint64_t cycle) {
    while (!m_fill_ends.empty() && m_fill_ends.begin()->first <= cycle) {
        m_fills.erase(m_fill_ends.begin()->second);
        m_fill_ends.erase(m_fill_ends.begin());
    }
}

uint64_t TranslationUnit::next_fill(uint64_t cycle) const {
    auto it = m_fill_ends.upper_bound({cycle, ~uint64_t{0}});
    if (it != m_fill_ends.end()) return it->first;
    // Only walks whose end is not known yet (kPending, which is ~0) or none.
    return ~uint64_t{0};
}

bool TranslationUnit::tick(uint64_t cycle) {
    const PageTable& table = m_gmmu.page_table();
    // L1 TLB lookups, in order.
    bool stalled = false;
    for (uint32_t port = 0; port < m_cfg.l1_tlb_ports && !upstream.empty(); ++port) {
        tlm::tlm_generic_payload* p = &upstream.front();
        const sim::TrafficClass cls = sim::PayloadPool::ext(*p).traffic;
        if (cls == sim::TrafficClass::Context || cls == sim::TrafficClass::Instruction) {  // physical
            upstream.pop();
            m_out.push_back(p);
            continue;
        }
        const uint64_t vpn = table.vpn(p->get_address());
        // From here every fill left is outstanding (ends after `cycle` or not known yet).
        prune_fills(cycle);
        auto fill = m_fills.find(vpn);
        if (!m_cfg.hit_under_miss) {
            // Without hit under miss, nothing passes an outstanding miss to another page.
            const bool other = m_fills.size() > (fill != m_fills.end() ? 1u : 0u);
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
            ready = fill->second;  // kPending: parked until the walk ends
        } else if (m_tlb.lookup(vpn)) {
            ++m_hits;
            ready = cycle + m_cfg.l1_tlb_latency;
        } else {
            const size_t outstanding = m_fills.size();
            if (outstanding >= m_cfg.l1_tlb_mshrs) {
                stalled = true;
                ++m_blocking_stalls;
                break;
            }
            ++m_misses;
            set_fill(vpn, kPending);  // set before the request: its answer may come at once
            std::optional<uint64_t> r = m_gmmu.translation().request(m_walk_client, vpn, cycle + m_cfg.l1_tlb_latency);
            ready = r ? *r : kPending;
            m_tlb.insert(vpn);
            if (r) set_fill(vpn, ready);
        }
        upstream.pop();
        if (ready == kPending) m_parked[vpn].emplace_back(m_seq++, p);
        else m_ready.push({ready, m_seq++, p});
    }
    upstream.admit_withheld();
    // Translated: ask the GMMU whether the bytes are on the GPU.
    while (!m_ready.empty() && m_ready.top().cycle <= cycle) {
        tlm::tlm_generic_payload* p = m_ready.top().p;
        m_ready.pop();
        if (m_gmmu.access(m_id, *p)) m_out.push_back(p);
        else ++m_held;
    }
    // Page-table reads due: 8-byte reads of the entry's sector, no functional data.
    while (!m_walk_sched.empty() && m_walk_sched.top().cycle <= cycle) {
        const WalkRead w = m_walk_sched.top();
        m_walk_sched.pop();
        tlm::tlm_generic_payload& p = m_pool.acquire();
        p.set_address(w.addr / m_line_bytes * m_line_bytes);
        p.set_data_length(static_cast<unsigned>(PageTable::kPteBytes));
        p.set_command(tlm::TLM_READ_COMMAND);
        sim::MemExtension& e = sim::PayloadPool::ext(p);
        e.source = m_id;
        e.sector_mask = 1u << (w.addr % m_line_bytes / m_sector_bytes);
        e.issue_cycle = cycle;
        e.access = sim::MemAccess::Read;
        e.traffic = sim::TrafficClass::PageWalk;
        m_walk_payloads[&p] = w.walk;
        m_walk_out.push_back(&p);
        ++m_pte_reads;
    }
    // Downstream, one request per port and cycle (page-table reads first), honouring END_REQ.
    for (uint32_t n = 0; n < m_cfg.l1_tlb_ports && (!m_out.empty() || !m_walk_out.empty()) && downstream.can_send();
         ++n) {
        std::deque<tlm::tlm_generic_payload*>& q = m_walk_out.empty() ? m_out : m_walk_out;
        tlm::tlm_generic_payload* p = q.front();
        q.pop_front();
        downstream.send(*p);
    }
    if ((!upstream.empty() && !stalled) || ((!m_out.empty() || !m_walk_out.empty()) && downstream.can_send()))
        return true;
    uint64_t next = m_ready.empty() ? ~uint64_t{0} : m_ready.top().cycle;
    if (!m_walk_sched.empty()) next = std::min(next, m_walk_sched.top().cycle);
    if (stalled) next = std::min(next, next_fill(cycle));
    if (next != ~uint64_t{0}) {
        if (next <= cycle + 1) return true;
        m_clock.wake_at(*this, next);
    }
    return false;
}

}  // namespace stacksim::memory
