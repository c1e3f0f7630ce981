// SPDX-License-Identifier: Apache-2.0
// Synthetic destination patterns: the interface and its registry (one file per pattern).
#pragma once
#include <cstdint>
#include <memory>

#include "noc/split_mix.h"
#include "sim/registry.h"

namespace stacksim::noc {

struct TrafficConfig;

/// Maps a source node of a width x height grid to a destination node.
class TrafficPattern {
public:
    virtual ~TrafficPattern() = default;
    /// Destination of a packet from `src`; may draw from `rng` (the source's generator).
    virtual unsigned destination(unsigned src, SplitMix64& rng) const = 0;
};

/// What a pattern is made from: the traffic settings and the grid.
struct TrafficPatternEnv {
    const TrafficConfig& cfg;
    unsigned width = 0, height = 0;
};

/// Patterns by name (traffic.pattern). A pattern that cannot serve the grid throws
/// sim::ConfigError("pattern: ...") when made.
using TrafficPatternRegistry = sim::Registry<TrafficPattern, const TrafficPatternEnv&>;
TrafficPatternRegistry& traffic_patterns();

/// The pattern cfg.pattern on a width x height grid.
std::unique_ptr<TrafficPattern> make_traffic_pattern(const TrafficConfig& cfg, unsigned width, unsigned height);

}  // namespace stacksim::noc
