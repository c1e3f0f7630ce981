// SPDX-License-Identifier: Apache-2.0
// Capacity compression of managed pages in GPU memory.
#include "memory/page_compression.h"

#include <algorithm>

namespace stacksim::memory {

PageCompression::PageCompression(const CompressionConfig& cfg, uint64_t page_bytes, uint32_t channels,
                                 const std::string& name, sim::StatRegistry& stats)
    : m_cfg(cfg), m_page_bytes(page_bytes), m_caches(std::max<uint32_t>(channels, 1), MetadataCache(cfg.metadata_cache_entries)) {
    sim::StatGroup g(stats, name);
    g.add("pages", m_pages, "managed pages that arrived on the GPU (each arrival measured)", "pages");
    g.add("compressed_pages", m_compressed_pages, "arrivals stored compressed (LCP layout smaller than the page)", "pages");
    g.add("raw_bytes", m_raw_bytes, "uncompressed size of the pages that arrived", "bytes");
    g.add("stored_bytes", m_stored_bytes, "GPU memory the pages that arrived took (LCP, chunk-rounded)", "bytes");
    g.add("exception_lines", m_exceptions, "lines of compressed pages stored uncompressed (LCP exceptions)", "lines");
    g.add_formula("ratio", [this] {
        return m_stored_bytes.value() ? static_cast<double>(m_raw_bytes.value()) / static_cast<double>(m_stored_bytes.value()) : 1.0;
    }, "compression ratio of the pages that arrived: raw_bytes / stored_bytes", "ratio");
    g.add("metadata_hits", m_meta_hits, "DRAM accesses to compressed pages whose metadata was cached", "accesses");
    g.add("metadata_misses", m_meta_misses, "DRAM accesses to compressed pages that read the metadata first", "accesses");
    g.add("decompressions", m_decompressions, "DRAM accesses that paid the decompression latency", "accesses");
}

LcpLayout PageCompression::measure(uint64_t vpn) const {
    if (m_cfg.forced_ratio > 0.0) return LcpPage::forced(m_page_bytes, m_cfg.forced_ratio);
    m_buffer.assign(m_page_bytes, 0);
    if (m_data) m_data->read(vpn * m_page_bytes, m_buffer.data(), m_page_bytes);
    return LcpPage::layout(m_buffer.data(), m_page_bytes);
}

void PageCompression::arrive(uint64_t vpn, const LcpLayout& l) {
    ++m_pages;
    m_raw_bytes += m_page_bytes;
    m_stored_bytes += l.compressed_bytes;
    if (l.compressed) {
        ++m_compressed_pages;
        m_exceptions += l.exceptions;
    }
    // A page that does not shrink is stored as it is: it costs no metadata or decompression.
    auto [it, fresh] = m_bytes.emplace(vpn, l.compressed ? l.compressed_bytes : 0);
    if (!fresh) m_resident_bytes -= it->second ? it->second : m_page_bytes;
    it->second = l.compressed ? l.compressed_bytes : 0;
    m_resident_bytes += l.compressed_bytes;
}

void PageCompression::leave(uint64_t vpn) {
    auto it = m_bytes.find(vpn);
    if (it == m_bytes.end()) return;
    m_resident_bytes -= it->second ? it->second : m_page_bytes;
    m_bytes.erase(it);
    for (MetadataCache& c : m_caches) c.invalidate(vpn);
}

uint32_t PageCompression::access_latency(uint32_t channel, uint64_t addr) {
    const uint64_t vpn = addr / m_page_bytes;
    auto it = m_bytes.find(vpn);
    if (it == m_bytes.end() || it->second == 0) return 0;
    uint32_t cycles = m_cfg.decompression_latency;
    ++m_decompressions;
    if (m_caches[channel % m_caches.size()].access(vpn)) {
        ++m_meta_hits;
    } else {
        ++m_meta_misses;
        cycles += m_cfg.metadata_miss_latency;
    }
    return cycles;
}

}  // namespace stacksim::memory
