// SPDX-License-Identifier: Apache-2.0
// Traffic pattern "tornado": (x, y) -> (x + ceil(W/2) - 1 mod W, y + ceil(H/2) - 1 mod H).
#include "noc/traffic.h"
#include "noc/traffic_pattern.h"

namespace stacksim::noc {

namespace {

class Tornado final : public TrafficPattern {
public:
    explicit Tornado(const TrafficPatternEnv& e) : m_w(e.width), m_h(e.height) {}
    unsigned destination(unsigned src, SplitMix64&) const override {
        const unsigned x = src % m_w, y = src / m_w;
        return ((y + (m_h + 1) / 2 - 1) % m_h) * m_w + (x + (m_w + 1) / 2 - 1) % m_w;
    }

private:
    unsigned m_w, m_h;
};

const bool registered = traffic_patterns().add("tornado", "(x, y) -> (x + ceil(W/2) - 1 mod W, y + ceil(H/2) - 1 mod H)", [](const TrafficPatternEnv& e) {
    return std::make_unique<Tornado>(e);
});

}  // namespace

}  // namespace stacksim::noc
