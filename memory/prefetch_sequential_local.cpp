// SPDX-License-Identifier: Apache-2.0
// Sequential-local page prefetching: the next pages of the faulting page's region.
#include "memory/prefetcher.h"

namespace stacksim::memory {

namespace {

/// Parameters of sequential_local ([uvm.sequential_local]).
struct SequentialLocalParams {
    uint32_t prefetch_pages = 4;
    static const sim::Params<SequentialLocalParams>& params() {
        static const auto p = [] {
            sim::Params<SequentialLocalParams> p;
            p.add("prefetch_pages", &SequentialLocalParams::prefetch_pages, "pages",
                  "pages after the faulting one (within its 2 MB region) migrated with it")
                .range(0, 1u << 20);
            return p;
        }();
        return p;
    }
};

class SequentialLocal final : public Prefetcher {
public:
    explicit SequentialLocal(const SequentialLocalParams& p) : m_n(p.prefetch_pages) {}
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

const bool registered = prefetchers().add_with<SequentialLocalParams>(
    "sequential_local", "also the next prefetch_pages pages of the 2 MB region",
    [](const SequentialLocalParams& p) { return std::make_unique<SequentialLocal>(p); });

}  // namespace

}  // namespace stacksim::memory
