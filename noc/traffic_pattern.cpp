// SPDX-License-Identifier: Apache-2.0
// The traffic-pattern registry.
#include "noc/traffic_pattern.h"

#include "noc/traffic.h"

namespace stacksim::noc {

TrafficPatternRegistry& traffic_patterns() {
    static TrafficPatternRegistry r("traffic pattern",
                                    "traffic patterns: the destination of each synthetic packet (stacksim noc)");
    return r;
}

std::unique_ptr<TrafficPattern> make_traffic_pattern(const TrafficConfig& cfg, unsigned width, unsigned height) {
    return traffic_patterns().create(cfg.pattern, TrafficPatternEnv{cfg, width, height});
}

}  // namespace stacksim::noc
