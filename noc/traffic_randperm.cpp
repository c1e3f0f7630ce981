// SPDX-License-Identifier: Apache-2.0
// Traffic pattern "randperm": a random permutation drawn from the seed.
#include <utility>
#include <vector>

#include "noc/traffic.h"
#include "noc/traffic_pattern.h"

namespace stacksim::noc {

namespace {

class Permutation final : public TrafficPattern {
public:
    explicit Permutation(const TrafficPatternEnv& e) : m_perm(e.width * e.height) {
        SplitMix64 rng(e.cfg.seed ^ 0x5bd1e995a1b2c3d4ULL);
        const unsigned n = static_cast<unsigned>(m_perm.size());
        for (unsigned i = 0; i < n; ++i) m_perm[i] = i;
        for (unsigned i = n; i > 1; --i) std::swap(m_perm[i - 1], m_perm[rng.below(i)]);
    }
    unsigned destination(unsigned src, SplitMix64&) const override { return m_perm[src]; }

private:
    std::vector<unsigned> m_perm;
};

const bool registered = traffic_patterns().add("randperm", "a random permutation drawn from the seed", [](const TrafficPatternEnv& e) {
    return std::make_unique<Permutation>(e);
});

}  // namespace

}  // namespace stacksim::noc
