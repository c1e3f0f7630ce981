// SPDX-License-Identifier: Apache-2.0
// Page eviction "lru": evict the least recently accessed group.
#include "memory/eviction_policy.h"

namespace stacksim::memory {

namespace {

class Lru final : public EvictionPolicy {
public:
    size_t pick(const std::vector<EvictionCandidate>& c) override {
        return smallest_candidate(c, [](const EvictionCandidate& e) { return e.last_access; });
    }
};

const bool registered = eviction_policies().add("lru", "evict the least recently accessed group",
                                                [](uint64_t) { return std::make_unique<Lru>(); });

}  // namespace

}  // namespace stacksim::memory
