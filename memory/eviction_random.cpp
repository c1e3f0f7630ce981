// SPDX-License-Identifier: Apache-2.0
// Page eviction "random": a uniformly random group, seeded by the run seed.
#include <random>

#include "memory/eviction_policy.h"

namespace stacksim::memory {

namespace {

class Random final : public EvictionPolicy {
public:
    explicit Random(uint64_t seed) : m_rng(seed) {}
    size_t pick(const std::vector<EvictionCandidate>& c) override { return static_cast<size_t>(m_rng() % c.size()); }

private:
    std::mt19937_64 m_rng;
};

const bool registered = eviction_policies().add("random", "evict a random group (seeded)",
                                                [](uint64_t seed) { return std::make_unique<Random>(seed); });

}  // namespace

}  // namespace stacksim::memory
