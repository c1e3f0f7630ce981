// SPDX-License-Identifier: Apache-2.0
// Tree-based neighbourhood page prefetching (Ganguly et al., ISCA 2019).
#include <algorithm>

#include "memory/prefetcher.h"

namespace stacksim::memory {

namespace {

/// The region is a full binary tree over its pages; walking up from the faulting page, once
/// more than half of a node's pages are present (counting the faulting page and the pages
/// already chosen), the rest of that node is prefetched.
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

const bool registered = prefetchers().add(
    "tree", "tree-based neighbourhood: fill a subtree of the 2 MB region once it is over half present",
    [] { return std::make_unique<Tree>(); });

}  // namespace

}  // namespace stacksim::memory
