// SPDX-License-Identifier: Apache-2.0
// Capacity compression of managed pages in GPU memory: sizes from real data, metadata caches.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "memory/compression_config.h"
#include "memory/lcp_page.h"
#include "memory/metadata_cache.h"
#include "sim/sparse_memory.h"
#include "sim/stats.h"

namespace stacksim::memory {

/// The GMMU's view of compressed GPU memory (plain C++). A managed page arriving on the GPU is
/// laid out with LCP over BDI-compressed lines, computed from the page's bytes in the
/// functional memory at that moment (or at the forced ratio); it occupies its compressed size
/// until it leaves. Each memory controller has a metadata cache: a DRAM access to a resident
/// compressed page that misses it pays metadata_miss_latency, and every DRAM access to a
/// compressed page pays decompression_latency. Each page-table entry grows by kPteBits.
class PageCompression {
public:
    static constexpr uint32_t kPteBits = 9;  ///< extra bits per PTE (thesis: compression info)

    /// `channels`: memory controllers (one metadata cache each); `name`: stats prefix.
    PageCompression(const CompressionConfig& cfg, uint64_t page_bytes, uint32_t channels, const std::string& name,
                    sim::StatRegistry& stats);

    /// The functional memory holding the pages' data (null: pages are all zero).
    void set_data(const sim::SparseMemory* data) { m_data = data; }
    /// Layout of page `vpn` from its current data, without recording it.
    LcpLayout measure(uint64_t vpn) const;
    /// Page `vpn`, laid out as `layout` (from measure()), takes GPU memory: records it.
    void arrive(uint64_t vpn, const LcpLayout& layout);
    /// Page `vpn` left GPU memory: frees its bytes and its metadata-cache entries.
    void leave(uint64_t vpn);
    /// GPU memory held by resident pages, bytes.
    uint64_t resident_bytes() const { return m_resident_bytes; }
    /// GPU memory the extra PTE bits of `pages` pages take, bytes.
    static uint64_t pte_overhead_bytes(uint64_t pages) { return (pages * kPteBits + 7) / 8; }
    /// Extra DRAM cycles of an access to `addr` at memory controller `channel`.
    uint32_t access_latency(uint32_t channel, uint64_t addr);

    uint64_t metadata_hits() const { return m_meta_hits.value(); }
    uint64_t metadata_misses() const { return m_meta_misses.value(); }

private:
    CompressionConfig m_cfg;
    uint64_t m_page_bytes;
    const sim::SparseMemory* m_data = nullptr;
    std::vector<MetadataCache> m_caches;
    std::unordered_map<uint64_t, uint64_t> m_bytes;  ///< resident vpn -> bytes it occupies
    uint64_t m_resident_bytes = 0;
    mutable std::vector<uint8_t> m_buffer;
    sim::Counter m_pages, m_compressed_pages, m_raw_bytes, m_stored_bytes, m_exceptions, m_meta_hits, m_meta_misses,
        m_decompressions;
};

}  // namespace stacksim::memory
