// SPDX-License-Identifier: Apache-2.0
// Per-SM sectored L1 data cache with MSHRs, write-through or write-back, victim tags.
#include "memory/sector_cache.h"

#include <algorithm>

#include "common/lost_locality_extension.h"
#include "sim/error.h"

namespace stacksim::memory {

namespace {
/// Bytes per bit of a request's sector mask (sim::MemExtension), whatever the cache's sectors.
constexpr uint32_t kMaskSectorBytes = 32;
}  // namespace

uint32_t SectorCache::own_sectors(uint32_t mask) const {
    // A cache with sectors larger than the mask's (an unsectored L2: one 128-byte sector) holds,
    // fetches and writes back whole sectors of its own: every mask bit of a touched sector is set.
    const uint32_t group = m_cfg.sector_bytes / kMaskSectorBytes;
    if (group <= 1) return mask;
    const uint32_t ones = group >= 32 ? ~0u : (1u << group) - 1;
    uint32_t out = 0;
    for (uint32_t first = 0; first < 32; first += group)
        if (mask & (ones << first)) out |= ones << first;
    return out;
}

SectorCache::SectorCache(sc_core::sc_module_name name, const SectorCacheConfig& cfg, sim::ClockDomain& clock,
                 sim::StatRegistry& stats)
    : sc_module(name), upstream("upstream", cfg.queue_depth), downstream("downstream"), m_cfg(cfg), m_clock(clock),
      m_tags(common::TagArrayGeometry{cfg.size_bytes, cfg.ways, cfg.line_bytes, cfg.sector_bytes,
                              cfg.replacement, cfg.hashed_sets}) {
    upstream.on_request([this] {
        m_clock.activate(*this);
        if (m_cfg.input_latency) m_arrivals.push_back(m_clock.cycle());
    });
    downstream.on_end_req([this] { m_clock.activate(*this); });
    downstream.on_response([this](tlm::tlm_generic_payload& p) {
        m_clock.activate(*this);
        m_returns.push_back(&p);
    });
    sim::StatGroup g(stats, std::string(this->name()));
    g.add("reads", m_reads, "read requests", "requests");
    g.add("read_hits", m_read_hits, "reads with every requested sector present", "requests");
    g.add("read_misses", m_sector_misses, "reads missing at least one sector", "requests");
    g.add("mshr_merges", m_mshr_merges, "misses merged into an MSHR already in flight", "requests");
    g.add("writes", m_writes, "write requests", "requests");
    g.add("atomics", m_atomics, "atomic requests (bypass)", "requests");
    g.add("reservation_fails", m_reservation_fails, "cycles the tag stage stalled: no MSHR or merge slot", "cycles");
    g.add("writebacks", m_writebacks, "dirty lines written back (write-back policy)", "lines");
    g.add("lost_locality", m_lost_locality, "misses found in the requester's victim tags", "requests");
    g.add("write_miss_fetches", m_write_miss_fetches,
          "write misses forwarded to the next level with a fetch of their sectors (write_miss = forward_and_fetch)",
          "requests");
    // Per-class counters: where the class can reach this cache in this run, at the level that
    // counts it (an L1 forwards, an L2 serves).
    auto can = [&](sim::TrafficClass c) { return (m_cfg.classes & traffic_bit(c)) != 0; };
    if (m_cfg.role == CacheRole::L1) {
        if (can(sim::TrafficClass::PageWalk))
            g.add("walk_forwards", m_walk_forwards, "page-table entry reads forwarded without allocating (L1)", "requests");
        if (can(sim::TrafficClass::Context))
            g.add("context_forwards", m_context_forwards,
                  "context save/restore requests an L1 forwarded without allocating (an L2 serves them as data)",
                  "requests");
        if (can(sim::TrafficClass::Instruction))
            g.add("instruction_forwards", m_instruction_forwards,
                  "I-cache fill reads an L1 forwarded without allocating (gpu.sm.icache_fill = memory)", "requests");
    } else {
        if (can(sim::TrafficClass::PageWalk)) {
            g.add("walk_reads", m_walk_reads, "page-table entry reads served here (also counted in reads)", "requests");
            g.add("walk_read_hits", m_walk_read_hits, "page-table entry reads that hit (also counted in read_hits)",
                  "requests");
        }
        if (can(sim::TrafficClass::Instruction))
            g.add("instruction_reads", m_instruction_reads, "I-cache fill reads served here (also counted in reads)",
                  "requests");
        if (can(sim::TrafficClass::Context))
            g.add("context_requests", m_context_requests,
                  "context save/restore requests that reached this slice (also counted in reads / writes): their "
                  "spread over the slices", "requests");
    }
    g.add_formula("hit_rate", [this] {
        double r = static_cast<double>(m_reads.value());
        return r ? static_cast<double>(m_read_hits.value()) / r : 0.0;
    }, "read hits / reads", "ratio");
}

void SectorCache::respond(tlm::tlm_generic_payload& p, uint64_t cycle) { m_ready.push({cycle, m_seq++, &p}); }

void SectorCache::remember_victim(const common::Eviction& ev) {
    if (m_cfg.victim_tags == 0) return;
    if (ev.owner >= m_victims.size()) m_victims.resize(ev.owner + 1);
    auto& v = m_victims[ev.owner];
    v.push_back(ev.line_addr);
    if (v.size() > m_cfg.victim_tags) v.pop_front();
}

bool SectorCache::in_victim_tags(uint32_t warp, uint64_t line) const {
    if (warp >= m_victims.size()) return false;
    const auto& v = m_victims[warp];
    return std::find(v.begin(), v.end(), line) != v.end();
}

void SectorCache::pop_request() {
    if (m_cfg.role != CacheRole::L1 && sim::PayloadPool::ext(front_request()).traffic == sim::TrafficClass::Context)
        ++m_context_requests;
    if (m_cfg.input_latency) m_delay.pop_front();
    else upstream.pop();
}

bool SectorCache::request_ready(uint64_t cycle) const { return !m_delay.empty() && m_delay.front().cycle <= cycle; }

bool SectorCache::enter_delay(uint64_t cycle) {
    // Only requests that have waited out the latency and not yet entered the tag stage are
    // bounded (Accel-Sim's icnt-to-L2 queue); the delay itself holds any number.
    size_t waiting = 0;
    for (auto it = m_delay.begin(); it != m_delay.end() && it->cycle <= cycle && waiting < m_cfg.queue_depth; ++it)
        ++waiting;
    bool moved = false;
    while (!upstream.empty() && waiting < m_cfg.queue_depth) {
        m_delay.push_back({m_arrivals.front() + m_cfg.input_latency, m_seq++, &upstream.front()});
        m_arrivals.pop_front();
        upstream.pop();
        if (m_delay.back().cycle <= cycle) ++waiting;
        moved = true;
    }
    return moved;
}

bool SectorCache::lookup_stage(uint64_t cycle) {
    tlm::tlm_generic_payload& p = front_request();
    sim::MemExtension& e = sim::PayloadPool::ext(p);
    const uint64_t line = m_tags.line_of(p.get_address());
    const uint32_t sectors = own_sectors(e.sector_mask);
    const bool write_back = m_cfg.write_policy == WritePolicy::WriteBack;
    const bool l1 = m_cfg.role == CacheRole::L1;
    if (l1 && e.traffic == sim::TrafficClass::Context) {
        // A context save or restore passes an L1 without allocating or touching its lines.
        ++m_context_forwards;
        m_out.push_back({line, sectors, e.access, &p, e.warp, true});
        pop_request();
        return true;
    }
    if (l1 && e.traffic == sim::TrafficClass::Instruction) {
        // An I-cache fill passes an L1 data cache without allocating (the SM has its own I-cache).
        ++m_instruction_forwards;
        m_out.push_back({line, sectors, e.access, &p, e.warp, true});
        pop_request();
        return true;
    }
    switch (e.access) {
    case sim::MemAccess::Read: {
        const bool walk = e.traffic == sim::TrafficClass::PageWalk;
        if (e.traffic == sim::TrafficClass::Instruction) ++m_instruction_reads;
        if (walk && l1) {
            // Like an atomic, a page-table read passes an L1 (not coherent with the GMMU's
            // page-table updates) without allocating; unlike one, it leaves the line alone.
            // An L2 slice caches page-table entries like any data.
            ++m_walk_forwards;
            m_out.push_back({line, sectors, sim::MemAccess::Read, &p, e.warp, true});
            break;
        }
        const uint32_t need = sectors & ~m_tags.lookup(line);
        if (need == 0) {
            ++m_reads;
            ++m_read_hits;
            if (walk) ++m_walk_reads, ++m_walk_read_hits;
            respond(p, cycle + m_cfg.hit_latency);
            break;
        }
        auto it = m_mshrs.find(line);
        if (it == m_mshrs.end() ? m_mshrs.size() >= m_cfg.mshrs : it->second.waiters.size() >= m_cfg.mshr_merge) {
            ++m_reservation_fails;
            return false;
        }
        ++m_reads;
        ++m_sector_misses;
        if (walk) ++m_walk_reads;
        if (in_victim_tags(e.warp, line)) {
            common::LostLocalityExtension::set(p);
            ++m_lost_locality;
        }
        if (it == m_mshrs.end()) {
            Mshr& m = m_mshrs[line];
            m.owner = e.warp;
            m.requested = need;
            m.outstanding = 1;
            m.waiters.push_back(&p);
            m_out.push_back({line, need, sim::MemAccess::Read, nullptr, e.warp});
        } else {
            Mshr& m = it->second;
            ++m_mshr_merges;
            m.waiters.push_back(&p);
            if (uint32_t extra = need & ~m.requested) {
                m.requested |= extra;
                ++m.outstanding;
                m_out.push_back({line, extra, sim::MemAccess::Read, nullptr, e.warp});
            }
        }
        break;
    }
    case sim::MemAccess::Write:
        if (write_back && m_cfg.write_miss == WriteMiss::ForwardAndFetch) {
            if (const uint32_t missing = sectors & ~m_tags.lookup(line)) {
                if (!forward_and_fetch(p, line, missing, sectors)) return false;
                break;
            }
        }
        ++m_writes;
        if (write_back) {
            if (auto ev = m_tags.fill(line, sectors, e.warp)) {
                remember_victim(*ev);
                if (ev->dirty_sectors) {
                    ++m_writebacks;
                    m_out.push_back({ev->line_addr, ev->dirty_sectors, sim::MemAccess::Write, nullptr, ev->owner});
                }
            }
            m_tags.mark_dirty(line, sectors);
            respond(p, cycle + m_cfg.hit_latency);
        } else {
            m_out.push_back({line, sectors, sim::MemAccess::Write, &p, e.warp});
        }
        break;
    case sim::MemAccess::Atomic:
        if (m_cfg.atomics == AtomicPolicy::Bypass) {
            ++m_atomics;
            m_tags.invalidate(line, ~0u);
            m_out.push_back({line, sectors, sim::MemAccess::Atomic, &p, e.warp});
            break;
        }
        // Executed here: a read-modify-write of resident sectors (missing ones are fetched
        // first, like a read), leaving them dirty.
        if (const uint32_t need = sectors & ~m_tags.lookup(line)) {
            auto it = m_mshrs.find(line);
            if (it == m_mshrs.end() ? m_mshrs.size() >= m_cfg.mshrs : it->second.waiters.size() >= m_cfg.mshr_merge) {
                ++m_reservation_fails;
                return false;
            }
            ++m_atomics;
            Mshr& m = m_mshrs[line];
            if (m.waiters.empty() && m.outstanding == 0) {
                m.owner = e.warp;
                m.requested = need;
                m.outstanding = 1;
                m_out.push_back({line, need, sim::MemAccess::Read, nullptr, e.warp});
            } else if (uint32_t extra = need & ~m.requested) {
                m.requested |= extra;
                ++m.outstanding;
                m_out.push_back({line, extra, sim::MemAccess::Read, nullptr, e.warp});
            }
            m.waiters.push_back(&p);
            m_pending_atomics.insert(&p);
            break;
        }
        ++m_atomics;
        m_tags.mark_dirty(line, sectors);
        respond(p, cycle + m_cfg.hit_latency + m_cfg.atomic_latency);
        break;
    }
    pop_request();
    return true;
}

bool SectorCache::forward_and_fetch(tlm::tlm_generic_payload& p, uint64_t line, uint32_t missing, uint32_t sectors) {
    const sim::MemExtension& e = sim::PayloadPool::ext(p);
    auto it = m_mshrs.find(line);
    if (it == m_mshrs.end() && m_mshrs.size() >= m_cfg.mshrs) {
        ++m_reservation_fails;
        return false;
    }
    ++m_writes;
    ++m_write_miss_fetches;
    m_out.push_back({line, e.sector_mask, sim::MemAccess::Write, &p, e.warp});  // acknowledged from below
    Mshr& m = m_mshrs[line];
    if (it == m_mshrs.end()) {
        m.owner = e.warp;
        m.requested = missing;
        m.outstanding = 1;
        m_out.push_back({line, missing, sim::MemAccess::Read, nullptr, e.warp});
    } else if (const uint32_t extra = missing & ~m.requested) {
        m.requested |= extra;
        ++m.outstanding;
        m_out.push_back({line, extra, sim::MemAccess::Read, nullptr, e.warp});
    }
    m.dirty_on_fill |= sectors;
    return true;
}

void SectorCache::handle_fill(tlm::tlm_generic_payload& down, uint64_t cycle) {
    const sim::MemExtension& e = sim::PayloadPool::ext(down);
    const uint64_t line = down.get_address();
    if (e.access == sim::MemAccess::Read && e.traffic == sim::TrafficClass::Demand) {  // a fill
        auto it = m_mshrs.find(line);
        if (it != m_mshrs.end()) {
            Mshr& m = it->second;
            if (auto ev = m_tags.fill(line, e.sector_mask, m.owner)) {
                remember_victim(*ev);
                if (ev->dirty_sectors) {
                    ++m_writebacks;
                    m_out.push_back({ev->line_addr, ev->dirty_sectors, sim::MemAccess::Write, nullptr, ev->owner});
                }
            }
            if (--m.outstanding == 0) {
                if (m.dirty_on_fill) m_tags.mark_dirty(line, m.dirty_on_fill);
                for (auto* w : m.waiters) {
                    auto atomic = m_pending_atomics.find(w);
                    if (atomic != m_pending_atomics.end()) {  // the read half arrived: modify, write
                        m_pending_atomics.erase(atomic);
                        m_tags.mark_dirty(line, own_sectors(sim::PayloadPool::ext(*w).sector_mask));
                        respond(*w, cycle + m_cfg.hit_latency + m_cfg.atomic_latency);
                    } else {
                        // The filled data leaves through the same data pipeline as a hit.
                        respond(*w, cycle + m_cfg.hit_latency);
                    }
                }
                m_mshrs.erase(it);
            }
        }
    } else {
        auto it = m_origin.find(&down);
        if (it != m_origin.end()) {
            respond(*it->second, cycle);  // a forwarded write or atomic is acknowledged
            m_origin.erase(it);
        }
    }
    down.release();
}

void SectorCache::send_downstream(uint64_t cycle) {
    if (m_out.empty() || !downstream.can_send()) return;
    Outgoing o = m_out.front();
    m_out.pop_front();
    tlm::tlm_generic_payload& p = m_pool.acquire();
    p.set_address(o.addr);
    if (o.whole) p.set_data_length(o.origin->get_data_length());
    else p.set_data_length(static_cast<unsigned>(__builtin_popcount(o.sectors)) * kMaskSectorBytes);
    p.set_command(o.access == sim::MemAccess::Read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
    sim::MemExtension& e = sim::PayloadPool::ext(p);
    if (o.origin) e = sim::PayloadPool::ext(*o.origin);
    e.warp = o.warp;
    e.sector_mask = o.sectors;
    e.access = o.access;
    e.issue_cycle = cycle;  // a forwarded request keeps its origin's traffic class
    if (o.origin) m_origin[&p] = o.origin;
    downstream.send(p);
}

bool SectorCache::tick(uint64_t cycle) {
    std::vector<tlm::tlm_generic_payload*> returns;
    returns.swap(m_returns);
    for (auto* d : returns) handle_fill(*d, cycle);
    while (!m_ready.empty() && m_ready.top().cycle <= cycle) {
        tlm::tlm_generic_payload* p = m_ready.top().p;
        m_ready.pop();
        upstream.respond(*p);
    }
    bool progressed = !returns.empty();
    if (m_cfg.input_latency) {
        // Each request reaches the tag stage input_latency cycles after it arrived, in order.
        if (enter_delay(cycle)) progressed = true;
        if (request_ready(cycle) && lookup_stage(cycle)) {
            progressed = true;
            enter_delay(cycle);
        }
    } else if (!upstream.empty() && lookup_stage(cycle)) {
        progressed = true;
    }
    if (upstream.admit_withheld()) {
        progressed = true;
        if (m_cfg.input_latency) enter_delay(cycle);
    }
    if (!m_out.empty() && downstream.can_send()) {
        send_downstream(cycle);
        progressed = true;
    }
    const bool next_ready = m_cfg.input_latency ? request_ready(cycle + 1) : !upstream.empty();
    const bool more_work = (next_ready && progressed) || (!m_out.empty() && downstream.can_send()) ||
                           !m_returns.empty();
    if (more_work) return true;
    uint64_t wake = m_ready.empty() ? ~uint64_t{0} : m_ready.top().cycle;
    if (!m_delay.empty() && m_delay.front().cycle > cycle) wake = std::min(wake, m_delay.front().cycle);
    if (wake != ~uint64_t{0}) m_clock.wake_at(*this, std::max(wake, cycle + 1));
    return false;
}

}  // namespace stacksim::memory
