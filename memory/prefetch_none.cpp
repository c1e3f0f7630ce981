// SPDX-License-Identifier: Apache-2.0
// No page prefetching: only the faulting page migrates.
#include "memory/prefetcher.h"

namespace stacksim::memory {

namespace {

class NoPrefetch final : public Prefetcher {
public:
    std::vector<uint64_t> pages(uint64_t, const PrefetchView&) const override { return {}; }
};

const bool registered =
    prefetchers().add("none", "migrate only what faulted", [] { return std::make_unique<NoPrefetch>(); });

}  // namespace

}  // namespace stacksim::memory
