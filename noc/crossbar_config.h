// SPDX-License-Identifier: Apache-2.0
// Configuration of the SM-to-memory-partition crossbar.
#pragma once
#include "sim/param.h"
#include <cstdint>

namespace stacksim::noc {

/// How the inputs' rotating priority moves.
enum class CrossbarPriority : uint8_t {
    Cycle,   ///< with the absolute cycle number (a kernel's timing depends on how long the GPU idled before it; the model before issue 28)
    Worked,  ///< once per cycle the crossbar works (independent of the start time; the default)
};

/// A crossbar between the SMs' L1s and the memory partitions. Times in crossbar cycles.
struct CrossbarConfig {
    double clock_mhz = 1216.0;
    uint32_t latency = 8;         ///< cycles through the switch, each way
    uint32_t width_bytes = 32;    ///< bytes a port moves per cycle (a packet of B bytes holds it ceil(B/width))
    uint32_t header_bytes = 8;    ///< address/command bytes of every packet
    uint32_t queue_depth = 16;    ///< requests queued per input port; beyond it END_REQ is withheld
    CrossbarPriority priority = CrossbarPriority::Worked;  ///< how the inputs' rotating priority moves

    /// The declared parameters (name, unit, description, allowed values of each key).
    static const sim::Params<CrossbarConfig>& params();
    /// Throws ConfigError("key: message") on an invalid value.
    void validate() const;
};

}  // namespace stacksim::noc
