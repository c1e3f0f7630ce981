// SPDX-License-Identifier: Apache-2.0
// Configuration of capacity compression of managed pages (LCP + BDI, section [uvm.compression]).
#pragma once
#include <cstdint>

#include "sim/param.h"

namespace stacksim::memory {

/// Section [uvm.compression]. Latencies in cycles of the DRAM command clock (the memory
/// controller's), added to the response of a DRAM access.
struct CompressionConfig {
    /// Managed pages are stored LCP/BDI-compressed in GPU memory: a page takes its compressed
    /// size of the capacity, and DRAM accesses pay the metadata and decompression latencies.
    bool enabled = false;
    uint32_t metadata_cache_entries = 512;  ///< per memory controller; pages' LCP metadata, LRU
    /// A metadata-cache miss reads the page's metadata from DRAM first: default 74 = a
    /// row-conflict read on the gddr5 preset (tRP + tRCD + tCL + burst).
    uint32_t metadata_miss_latency = 74;
    uint32_t decompression_latency = 2;     ///< every DRAM access to a compressed page
    /// > 0: every page compresses to page_bytes / forced_ratio, whatever its data (sensitivity
    /// study); 0: the ratio is measured on the page's data.
    double forced_ratio = 0.0;

    static const sim::Params<CompressionConfig>& params();
    void validate() const {}
};

}  // namespace stacksim::memory
