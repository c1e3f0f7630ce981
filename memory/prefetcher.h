// SPDX-License-Identifier: Apache-2.0
// Which further pages to migrate along with a faulting one (interface, registry).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "sim/registry.h"

namespace stacksim::memory {

/// What a prefetcher may ask about pages (by virtual page number).
struct PrefetchView {
    uint64_t region_pages = 1;                 ///< pages per prefetch region (2 MB / page size)
    std::function<bool(uint64_t)> allocated;   ///< page belongs to a managed allocation
    std::function<bool(uint64_t)> present;     ///< page resident or on its way
};

/// Chooses pages to prefetch after a far fault on `vpn`, within vpn's region.
class Prefetcher {
public:
    virtual ~Prefetcher() = default;
    /// Allocated, not present pages to migrate too, in ascending order.
    virtual std::vector<uint64_t> pages(uint64_t vpn, const PrefetchView& v) const = 0;
};

/// Prefetchers by name (uvm.prefetcher), each in memory/prefetch_*.cpp.
using PrefetcherRegistry = sim::Registry<Prefetcher>;
PrefetcherRegistry& prefetchers();

}  // namespace stacksim::memory
