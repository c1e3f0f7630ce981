// SPDX-License-Identifier: Apache-2.0
// Traffic pattern "shuffle": node id rotated left by one bit; power-of-two node count.
#include <fmt/format.h>

#include "noc/traffic.h"
#include "noc/traffic_pattern.h"
#include "sim/error.h"

namespace stacksim::noc {

namespace {

class Shuffle final : public TrafficPattern {
public:
    explicit Shuffle(const TrafficPatternEnv& e) : m_n(e.width * e.height) {
        if (!m_n || (m_n & (m_n - 1)))
            throw sim::ConfigError(fmt::format("pattern: {} needs a power-of-two node count (have {})", "shuffle", m_n));
        while ((1u << m_bits) < m_n) ++m_bits;
    }
    unsigned destination(unsigned src, SplitMix64&) const override {
        return m_bits ? ((src << 1) | (src >> (m_bits - 1))) & (m_n - 1) : src;
    }

private:
    unsigned m_n, m_bits = 0;
};

const bool registered = traffic_patterns().add("shuffle", "node id rotated left by one bit; power-of-two node count", [](const TrafficPatternEnv& e) {
    return std::make_unique<Shuffle>(e);
});

}  // namespace

}  // namespace stacksim::noc
