// SPDX-License-Identifier: Apache-2.0
// One application's page table: radix levels for walk timing, per-page state (plain C++).
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "memory/valid_ranges.h"

namespace stacksim::memory {

/// Where a page's data is (paper 002 fig. 1): all on the host, all on the GPU, or the
/// GPU holds the valid ranges and the host the rest.
enum class PageState : uint8_t { CpuValid, PartialValid, GpuValid };
const char* page_state_name(PageState s);

/// One page table entry with the GMMU's bookkeeping.
struct PageEntry {
    PageState state = PageState::CpuValid;
    bool resident = false;   ///< holds a GPU frame (partial or GPU-valid, or arriving)
    bool dirty = false;      ///< written by the GPU since it arrived
    ValidRanges valid;       ///< bytes valid on the GPU
    ValidRanges pending;     ///< bytes on their way (planned or in flight)
    /// Bytes the host holds data for: written by the host (memcpy, non-zero memset) or copied
    /// back from the GPU (host access, eviction write-back). The rest was never written.
    ValidRanges host_data;
    uint32_t generation = 0; ///< bumped when the page leaves the GPU; stale arrivals are dropped
    bool managed = false;    ///< demand-paged (managed allocation); else device memory, always GPU-valid
};

/// A 4- or 3-level radix page table over a 48-bit virtual address space (9 bits per level).
/// Entries exist for managed pages (created on allocation); walk timing uses level_key().
class PageTable {
public:
    /// `page_bytes`: 4 KB, 64 KB or 2 MB; `levels`: radix levels.
    PageTable(uint64_t page_bytes, uint32_t levels);

    uint64_t page_bytes() const { return m_page_bytes; }
    uint32_t levels() const { return m_levels; }
    uint64_t vpn(uint64_t addr) const { return addr / m_page_bytes; }
    uint64_t offset(uint64_t addr) const { return addr % m_page_bytes; }
    /// Identifies the upper-level entry read at `level` (0 = root) for `vpn`, for the
    /// page-walk cache: the level and the vpn bits above it.
    uint64_t level_key(uint64_t vpn, uint32_t level) const;
    /// Address of the 8-byte entry read at `level` (0 = root, levels() - 1 = leaf) when
    /// walking `vpn`. Each level's entries lie in their own 1 TB window of a reserved region
    /// from kPageTableBase (above anything the workload allocates), ordered by the vpn bits
    /// above the level, so neighbouring pages' entries share sectors and lines.
    uint64_t pte_address(uint64_t vpn, uint32_t level) const;
    static constexpr uint64_t kPageTableBase = 0xF000'0000'0000;
    static constexpr uint64_t kPteBytes = 8;

    /// Creates entries (CPU-valid) for every page of [addr, addr + bytes).
    void map(uint64_t addr, uint64_t bytes);
    /// The entry of `vpn`, or null if it was never mapped.
    PageEntry* find(uint64_t vpn);
    const PageEntry* find(uint64_t vpn) const;
    /// Sets `e.state` from its valid bytes.
    void update_state(PageEntry& e) const;
    size_t pages() const { return m_entries.size(); }
    std::map<uint64_t, PageEntry>& entries() { return m_entries; }
    const std::map<uint64_t, PageEntry>& entries() const { return m_entries; }

private:
    uint64_t m_page_bytes;
    uint32_t m_levels;
    uint32_t m_page_shift;
    std::map<uint64_t, PageEntry> m_entries;
};

}  // namespace stacksim::memory
