// SPDX-License-Identifier: Apache-2.0
// The GPU memory management unit: GPU frames, eviction and migration back to the host.
#include "memory/gmmu.h"

namespace stacksim::memory {

bool Gmmu::ensure_frame(uint64_t vpn) {
    PageEntry& e = *m_table.find(vpn);
    if (e.resident) return true;
    if (m_compression_active) {
        if (!make_room_compressed(vpn)) return false;
    } else {
        if (m_cfg.writeback_before_reuse) {
            // A frame is free once its evicted page's write-back has reached the host: evict a new
            // group only when nothing is draining, then wait for the drain (fault-triggered eviction).
            if (m_resident + m_draining >= capacity_pages() && m_draining == 0) evict_one();
            if (m_resident + m_draining >= capacity_pages()) return false;
        }
        while (m_resident >= capacity_pages())
            if (!evict_one()) return false;
    }
    e.resident = true;
    ++m_resident;
    Group& g = m_groups[vpn / m_group_pages];
    if (g.resident++ == 0) {
        g.times.group = vpn / m_group_pages;
        g.times.resident_since = ++m_seq;
        g.times.last_access = m_seq;
    }
    g.times.last_migration = ++m_seq;
    return true;
}

bool Gmmu::evict_one() {
    // Candidates: groups with a resident page that has nothing on its way.
    std::vector<EvictionCandidate> cands;
    for (auto& [id, g] : m_groups) {
        for (uint64_t v = id * m_group_pages; v < (id + 1) * m_group_pages; ++v) {
            const PageEntry* e = m_table.find(v);
            if (e && e->resident && e->pending.empty()) {
                cands.push_back(g.times);
                break;
            }
        }
    }
    if (cands.empty()) return false;
    const uint64_t group = cands[m_eviction->pick(cands)].group;
    ++m_evicted_groups;
    std::vector<CopyItem> writeback;
    for (uint64_t v = group * m_group_pages; v < (group + 1) * m_group_pages; ++v) {
        PageEntry* e = m_table.find(v);
        if (e && e->resident && e->pending.empty()) evict_page(v, *e, writeback);
    }
    // Eviction on demand (writeback_before_reuse): the group is the eviction unit, written back
    // by one DMA, and its dirty pages' frames are free when all of it has reached the host.
    if (!writeback.empty()) start_copy(Direction::D2H, std::move(writeback), CopyKind::Writeback);
    return true;
}

void Gmmu::evict_page(uint64_t vpn, PageEntry& e, std::vector<CopyItem>& group_writeback) {
    ++m_evicted_pages;
    if (e.dirty && !e.valid.empty()) {
        e.host_data.add(e.valid);  // the host holds the GPU's data from now on
        ++m_writebacks;
        m_bytes_written_back += e.valid.bytes();
        CopyItem item{vpn, e.generation, e.valid.ranges(), -1};
        if (m_cfg.writeback_before_reuse) {
            ++m_draining;
            group_writeback.push_back(std::move(item));
        } else {
            start_copy(Direction::D2H, {std::move(item)}, CopyKind::Writeback);
        }
    }
    leave_gpu(vpn, e);
    // Requests still waiting on this page fault again.
    auto it = m_waiters.find(vpn);
    if (it != m_waiters.end()) {
        std::vector<Waiter> ws = it->second;
        for (const Waiter& w : ws) need_migration(vpn, e, w);
    }
}

void Gmmu::leave_gpu(uint64_t vpn, PageEntry& e) {
    if (e.resident) {
        if (m_compression) m_compression->leave(vpn);
        --m_resident;
        auto g = m_groups.find(vpn / m_group_pages);
        if (g != m_groups.end() && --g->second.resident == 0) m_groups.erase(g);
    }
    e.resident = false;
    e.dirty = false;
    e.valid.clear();
    e.pending.clear();
    e.state = PageState::CpuValid;
    ++e.generation;
    m_translation.invalidate(vpn);
    for (auto& inv : m_invalidate) inv(vpn);
}

void Gmmu::evict_proactively() {
    if (!oversubscribed()) return;
    // With compression the capacity is counted in stored bytes (make_room_compressed): keep
    // proactive_free_bytes of it free. Counting frames there would evict down to the
    // uncompressed capacity and undo what compression gained.
    const auto over = [this] {
        if (m_compression_active)
            return m_compression->resident_bytes() + m_proactive_free_pages * m_cfg.page_bytes >
                   capacity_pages() * m_cfg.page_bytes;
        return m_resident + m_draining + m_proactive_free_pages > capacity_pages();
    };
    while (over())
        if (!evict_one()) return;
        else ++m_proactive_groups;
}

std::vector<uint64_t> Gmmu::host_access(uint64_t addr, uint64_t bytes, bool writes) {
    std::vector<uint64_t> copies;
    if (!m_any_managed || bytes == 0) return copies;
    for (uint64_t v = m_table.vpn(addr); v <= m_table.vpn(addr + bytes - 1); ++v) {
        PageEntry* e = m_table.find(v);
        if (!e || !e->managed) continue;
        if (writes) {
            const uint64_t base = v * m_cfg.page_bytes;
            e->host_data.add({std::max(addr, base) - base, std::min(addr + bytes, base + m_cfg.page_bytes) - base});
        }
        if (!e->resident && e->valid.empty()) continue;
        e->host_data.add(e->valid);  // copied back below
        ++m_host_faults;
        // The GPU holds the only copy of its valid bytes: they come back, and the page is
        // CPU-valid as a whole again.
        const uint64_t n = e->valid.bytes();
        if (n) {
            copies.push_back(n);
            m_bytes_back += n;
        }
        leave_gpu(v, *e);
        auto it = m_waiters.find(v);
        if (it != m_waiters.end()) {
            std::vector<Waiter> ws = it->second;
            for (const Waiter& w : ws) need_migration(v, *e, w);
        }
    }
    return copies;
}

}  // namespace stacksim::memory
