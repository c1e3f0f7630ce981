// SPDX-License-Identifier: Apache-2.0
// Page eviction "fifo": evict the group resident longest.
#include "memory/eviction_policy.h"

namespace stacksim::memory {

namespace {

class Fifo final : public EvictionPolicy {
public:
    size_t pick(const std::vector<EvictionCandidate>& c) override {
        return smallest_candidate(c, [](const EvictionCandidate& e) { return e.resident_since; });
    }
};

const bool registered = eviction_policies().add("fifo", "evict the group resident longest",
                                                [](uint64_t) { return std::make_unique<Fifo>(); });

}  // namespace

}  // namespace stacksim::memory
