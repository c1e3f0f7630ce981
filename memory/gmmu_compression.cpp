// SPDX-License-Identifier: Apache-2.0
// The GPU memory management unit: GPU memory capacity in bytes when pages are compressed.
#include "memory/gmmu.h"

namespace stacksim::memory {

void Gmmu::activate_compression() {
    if (!m_compression || m_compression_active) return;
    m_compression_active = true;
    for (const auto& [vpn, e] : m_table.entries())
        if (e.resident) m_compression->arrive(vpn, m_compression->measure(vpn));
}

bool Gmmu::make_room_compressed(uint64_t vpn) {
    const LcpLayout layout = m_compression->measure(vpn);
    const uint64_t need = layout.compressed_bytes;
    // Capacity counts managed data only, as without compression: the page table, and so its
    // extra kPteBits per entry (stat compression.pte_bytes), lives outside it.
    const uint64_t capacity = capacity_pages() * m_cfg.page_bytes;
    // With nothing resident a page is always taken (as one frame is without compression).
    const auto full = [&] {
        return m_compression->resident_bytes() > 0 && m_compression->resident_bytes() + need > capacity;
    };
    if (m_cfg.writeback_before_reuse && full()) {
        // As without compression: evict one group, then wait for its write-back to reach the host.
        if (m_draining == 0) evict_one();
        if (m_draining > 0) return false;
    }
    while (full())
        if (!evict_one()) return false;
    m_compression->arrive(vpn, layout);
    return true;
}

}  // namespace stacksim::memory
