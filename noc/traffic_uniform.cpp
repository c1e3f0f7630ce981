// SPDX-License-Identifier: Apache-2.0
// Traffic pattern "uniform": each packet to a uniformly random other node.
#include "noc/traffic.h"
#include "noc/traffic_pattern.h"

namespace stacksim::noc {

namespace {

class Uniform final : public TrafficPattern {
public:
    explicit Uniform(const TrafficPatternEnv& e) : m_n(e.width * e.height) {}
    unsigned destination(unsigned src, SplitMix64& rng) const override { return uniform_other(src, m_n, rng); }

private:
    unsigned m_n;
};

const bool registered = traffic_patterns().add("uniform", "each packet to a uniformly random other node", [](const TrafficPatternEnv& e) {
    return std::make_unique<Uniform>(e);
});

}  // namespace

}  // namespace stacksim::noc
