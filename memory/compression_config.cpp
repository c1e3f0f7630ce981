// SPDX-License-Identifier: Apache-2.0
// Configuration of capacity compression of managed pages: declared parameters.
#include "memory/compression_config.h"

namespace stacksim::memory {

const sim::Params<CompressionConfig>& CompressionConfig::params() {
    using C = CompressionConfig;
    static const auto p = [] {
        sim::Params<C> p;
        p.add("enabled", &C::enabled, "",
              "managed pages are stored LCP/BDI-compressed: each takes its compressed size of the GPU memory "
              "capacity (measured on its data when it arrives), DRAM accesses pay the latencies below");
        p.add("metadata_cache_entries", &C::metadata_cache_entries, "entries",
              "LCP metadata cache of each memory controller (pages, fully associative, LRU)")
            .range(1, 1u << 20);
        p.add("metadata_miss_latency", &C::metadata_miss_latency, "DRAM cycles",
              "added to a DRAM access whose page misses the metadata cache (the metadata read)")
            .range(0, 1000000);
        p.add("decompression_latency", &C::decompression_latency, "DRAM cycles",
              "added to every DRAM access to a compressed page")
            .range(0, 1000000);
        p.add("forced_ratio", &C::forced_ratio, "ratio",
              "> 0: every page compresses to page_bytes / forced_ratio regardless of its data; 0: measured")
            .check([](double v) { return v == 0.0 || (v >= 1.0 && v <= 64.0); }, "0 or 1..64");
        return p;
    }();
    return p;
}

}  // namespace stacksim::memory
