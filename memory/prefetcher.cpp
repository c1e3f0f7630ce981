// SPDX-License-Identifier: Apache-2.0
// Page prefetchers.
#include "memory/prefetcher.h"

#include <algorithm>

namespace stacksim::memory {

namespace {

class NoPrefetch final : public Prefetcher {
public:
    std::vector<uint64_t> pages(uint64_t, const PrefetchView&) const override { return {}; }
};

class SequentialLocal final : public Prefetcher {
public:
    explicit SequentialLocal(uint32_t n) : m_n(n) {}
    std::vector<uint64_t> pages(uint64_t vpn, const PrefetchView& v) const override {
        std::vector<uint64_t> out;
        const uint64_t end = (vpn / v.region_pages + 1) * v.region_pages;
        for (uint64_t p = vpn + 1; p < end && p <= vpn + m_n; ++p)
            if (v.allocated(p) && !v.present(p)) out.push_back(p);
        return out;
    }

private:
    uint32_t m_n;
};

/// The region is a full binary tree over its pages; walking up from the faulting page, once
/// more than half of a node's pages are present (counting the faulting page and the pages
/// already chosen), the rest of that node is prefetched (Ganguly et al., ISCA 2019).
class Tree final : public Prefetcher {
public:
    std::vector<uint64_t> pages(uint64_t vpn, const PrefetchView& v) const override {
        const uint64_t base = vpn / v.region_pages * v.region_pages;
        std::vector<bool> have(v.region_pages);
        for (uint64_t i = 0; i < v.region_pages; ++i) have[i] = v.present(base + i) || base + i == vpn;
        std::vector<uint64_t> out;
        for (uint64_t size = 2; size <= v.region_pages; size *= 2) {
            const uint64_t first = (vpn - base) / size * size;
            uint64_t n = 0;
            for (uint64_t i = first; i < first + size; ++i) n += have[i];
            if (2 * n <= size) continue;
            for (uint64_t i = first; i < first + size; ++i)
                if (!have[i] && v.allocated(base + i)) {
                    have[i] = true;
                    out.push_back(base + i);
                }
        }
        std::sort(out.begin(), out.end());
        return out;
    }
};

PrefetcherRegistry build() {
    PrefetcherRegistry r("prefetcher");
    r.add("none", "migrate only what faulted", [](uint32_t) { return std::make_unique<NoPrefetch>(); });
    r.add("sequential_local", "also the next prefetch_pages pages of the 2 MB region",
          [](uint32_t n) { return std::make_unique<SequentialLocal>(n); });
    r.add("tree", "tree-based neighbourhood: fill a subtree of the 2 MB region once it is over half present",
          [](uint32_t) { return std::make_unique<Tree>(); });
    return r;
}

}  // namespace

const PrefetcherRegistry& prefetcher_registry() {
    static const PrefetcherRegistry r = build();
    return r;
}

}  // namespace stacksim::memory
