// SPDX-License-Identifier: Apache-2.0
// Page eviction policies.
#include "memory/eviction_policy.h"

#include <random>

namespace stacksim::memory {

namespace {

/// The candidate with the smallest key (first in group order on ties).
template <typename Key> size_t smallest(const std::vector<EvictionCandidate>& c, Key key) {
    size_t best = 0;
    for (size_t i = 1; i < c.size(); ++i)
        if (key(c[i]) < key(c[best])) best = i;
    return best;
}

class AgeLru final : public EvictionPolicy {
public:
    size_t pick(const std::vector<EvictionCandidate>& c) override {
        return smallest(c, [](const EvictionCandidate& e) { return e.last_migration; });
    }
};

class Lru final : public EvictionPolicy {
public:
    size_t pick(const std::vector<EvictionCandidate>& c) override {
        return smallest(c, [](const EvictionCandidate& e) { return e.last_access; });
    }
};

class Fifo final : public EvictionPolicy {
public:
    size_t pick(const std::vector<EvictionCandidate>& c) override {
        return smallest(c, [](const EvictionCandidate& e) { return e.resident_since; });
    }
};

class Random final : public EvictionPolicy {
public:
    explicit Random(uint64_t seed) : m_rng(seed) {}
    size_t pick(const std::vector<EvictionCandidate>& c) override {
        return static_cast<size_t>(m_rng() % c.size());
    }

private:
    std::mt19937_64 m_rng;
};

EvictionRegistry build() {
    EvictionRegistry r("eviction policy");
    r.add("age_lru", "evict the group whose pages migrated in longest ago (driver-visible age)",
          [](uint64_t) { return std::make_unique<AgeLru>(); });
    r.add("lru", "evict the least recently accessed group", [](uint64_t) { return std::make_unique<Lru>(); });
    r.add("fifo", "evict the group resident longest", [](uint64_t) { return std::make_unique<Fifo>(); });
    r.add("random", "evict a random group (seeded)", [](uint64_t seed) { return std::make_unique<Random>(seed); });
    return r;
}

}  // namespace

const EvictionRegistry& eviction_registry() {
    static const EvictionRegistry r = build();
    return r;
}

}  // namespace stacksim::memory
