// SPDX-License-Identifier: Apache-2.0
// Page eviction "age_lru": evict the group whose pages migrated in longest ago (driver-visible age).
#include "memory/eviction_policy.h"

namespace stacksim::memory {

namespace {

class AgeLru final : public EvictionPolicy {
public:
    size_t pick(const std::vector<EvictionCandidate>& c) override {
        return smallest_candidate(c, [](const EvictionCandidate& e) { return e.last_migration; });
    }
};

const bool registered = eviction_policies().add("age_lru", "evict the group whose pages migrated in longest ago (driver-visible age)",
                                                [](uint64_t) { return std::make_unique<AgeLru>(); });

}  // namespace

}  // namespace stacksim::memory
