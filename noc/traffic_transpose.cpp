// SPDX-License-Identifier: Apache-2.0
// Traffic pattern "transpose": (x, y) -> (y, x); square meshes.
#include "noc/traffic.h"
#include "noc/traffic_pattern.h"
#include "sim/error.h"

namespace stacksim::noc {

namespace {

class Transpose final : public TrafficPattern {
public:
    explicit Transpose(const TrafficPatternEnv& e) : m_w(e.width) {
        if (e.width != e.height) throw sim::ConfigError("pattern: transpose needs a square mesh");
    }
    unsigned destination(unsigned src, SplitMix64&) const override { return (src % m_w) * m_w + src / m_w; }

private:
    unsigned m_w;
};

const bool registered = traffic_patterns().add("transpose", "(x, y) -> (y, x); square meshes", [](const TrafficPatternEnv& e) {
    return std::make_unique<Transpose>(e);
});

}  // namespace

}  // namespace stacksim::noc
