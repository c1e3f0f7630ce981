// SPDX-License-Identifier: Apache-2.0
// Traffic pattern "bitcomp": bit complement of the node id; power-of-two node count.
#include <fmt/format.h>

#include "noc/traffic.h"
#include "noc/traffic_pattern.h"
#include "sim/error.h"

namespace stacksim::noc {

namespace {

class BitComplement final : public TrafficPattern {
public:
    explicit BitComplement(const TrafficPatternEnv& e) : m_n(e.width * e.height) {
        if (!m_n || (m_n & (m_n - 1)))
            throw sim::ConfigError(fmt::format("pattern: {} needs a power-of-two node count (have {})", "bitcomp", m_n));
    }
    unsigned destination(unsigned src, SplitMix64&) const override { return ~src & (m_n - 1); }

private:
    unsigned m_n;
};

const bool registered = traffic_patterns().add("bitcomp", "bit complement of the node id; power-of-two node count", [](const TrafficPatternEnv& e) {
    return std::make_unique<BitComplement>(e);
});

}  // namespace

}  // namespace stacksim::noc
