// SPDX-License-Identifier: Apache-2.0
// Traffic pattern "hotspot": hotspot_fraction of packets to hotspot_node, the rest uniform.
#include "noc/traffic.h"
#include "noc/traffic_pattern.h"

namespace stacksim::noc {

namespace {

class Hotspot final : public TrafficPattern {
public:
    explicit Hotspot(const TrafficPatternEnv& e) : m_n(e.width * e.height), m_fraction(e.cfg.hotspot_fraction) {
        m_hotspot = e.cfg.hotspot_node >= 0 ? static_cast<unsigned>(e.cfg.hotspot_node)
                                            : (e.height / 2) * e.width + e.width / 2;
    }
    unsigned destination(unsigned src, SplitMix64& rng) const override {
        if (rng.uniform() < m_fraction) return m_hotspot;
        return uniform_other(src, m_n, rng);
    }

private:
    unsigned m_n, m_hotspot = 0;
    double m_fraction;
};

const bool registered = traffic_patterns().add("hotspot", "hotspot_fraction of packets to hotspot_node, the rest uniform", [](const TrafficPatternEnv& e) {
    return std::make_unique<Hotspot>(e);
});

}  // namespace

}  // namespace stacksim::noc
