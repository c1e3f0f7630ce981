// SPDX-License-Identifier: Apache-2.0
// Declared parameters and validation of the SM-to-partition crossbar's configuration.
#include "noc/crossbar_config.h"

#include <fmt/format.h>

#include "sim/error.h"

namespace stacksim::noc {

void CrossbarConfig::validate() const {
    if (!(clock_mhz > 0)) throw sim::ConfigError("clock_mhz: must be positive");
    if (width_bytes == 0) throw sim::ConfigError("width_bytes: must be positive");
    if (queue_depth == 0) throw sim::ConfigError("queue_depth: must be positive");
}

const sim::Params<CrossbarConfig>& CrossbarConfig::params() {
    using C = CrossbarConfig;
    static const auto p = [] {
        sim::Params<C> p;
        p.add("clock_mhz", &C::clock_mhz, "MHz", "crossbar clock").range(1.0, 100000.0);
        p.add("latency", &C::latency, "cycles", "cycles through the switch, each way").range(0, 100000);
        p.add("width_bytes", &C::width_bytes, "bytes",
              "bytes a port moves per cycle (a packet of B bytes holds it ceil(B / width) cycles)")
            .range(1, 4096);
        p.add("header_bytes", &C::header_bytes, "bytes", "address/command bytes of every packet").range(0, 4096);
        p.add("queue_depth", &C::queue_depth, "requests",
              "requests queued per input port; beyond it END_REQ is withheld")
            .range(1, 65536);
        p.add("priority", &C::priority, "",
              "how the inputs' rotating priority moves: cycle (with the absolute cycle number, so a kernel's "
              "cycles vary with its start time), worked (once per cycle the crossbar works: start-time "
              "independent; docs/memory.md)")
            .names({{"cycle", CrossbarPriority::Cycle}, {"worked", CrossbarPriority::Worked}});
        return p;
    }();
    return p;
}

}  // namespace stacksim::noc
