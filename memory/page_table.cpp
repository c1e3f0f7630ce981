// SPDX-License-Identifier: Apache-2.0
// One application's page table.
#include "memory/page_table.h"

#include <algorithm>

namespace stacksim::memory {

const char* page_state_name(PageState s) {
    switch (s) {
    case PageState::CpuValid: return "cpu_valid";
    case PageState::PartialValid: return "partial_valid";
    case PageState::GpuValid: return "gpu_valid";
    }
    return "?";
}

PageTable::PageTable(uint64_t page_bytes, uint32_t levels) : m_page_bytes(page_bytes), m_levels(levels) {
    m_page_shift = 0;
    while ((uint64_t{1} << m_page_shift) < page_bytes) ++m_page_shift;
}

uint64_t PageTable::level_key(uint64_t vpn, uint32_t level) const {
    // Entry at `level` is indexed by the top 9*(level+1) bits of the vpn.
    const uint32_t vpn_bits = 48 - m_page_shift;
    const uint32_t kept = std::min(vpn_bits, 9 * (level + 1));
    return (uint64_t{level} << 56) | (vpn >> (vpn_bits - kept));
}

uint64_t PageTable::pte_address(uint64_t vpn, uint32_t level) const {
    const uint32_t vpn_bits = 48 - m_page_shift;
    const uint32_t kept = std::min(vpn_bits, 9 * (level + 1));
    const uint64_t index = vpn >> (vpn_bits - kept);  // < 2^36 entries of 8 bytes < 1 TB
    return kPageTableBase + (uint64_t{level} << 40) + index * kPteBytes;
}

void PageTable::map(uint64_t addr, uint64_t bytes) {
    if (bytes == 0) return;
    for (uint64_t v = vpn(addr); v <= vpn(addr + bytes - 1); ++v) m_entries.try_emplace(v);
}

PageEntry* PageTable::find(uint64_t vpn) {
    auto it = m_entries.find(vpn);
    return it == m_entries.end() ? nullptr : &it->second;
}

const PageEntry* PageTable::find(uint64_t vpn) const {
    auto it = m_entries.find(vpn);
    return it == m_entries.end() ? nullptr : &it->second;
}

void PageTable::update_state(PageEntry& e) const {
    if (e.valid.empty()) e.state = PageState::CpuValid;
    else if (e.valid.covers(0, m_page_bytes)) e.state = PageState::GpuValid;
    else e.state = PageState::PartialValid;
}

}  // namespace stacksim::memory
