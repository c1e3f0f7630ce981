// SPDX-License-Identifier: Apache-2.0
// Configuration of the fixed-latency, bandwidth-limited memory.
#pragma once
#include "sim/param.h"
#include <cstdint>

namespace stacksim::memory {

/// A memory with a fixed latency and a peak bandwidth (the stand-in for the full hierarchy).
struct SimpleMemoryConfig {
    double clock_mhz = 1000.0;       ///< memory clock; latency counts these cycles
    uint32_t latency = 300;          ///< cycles from acceptance to response (after transfer)
    double bandwidth_gbps = 224.0;   ///< peak data bandwidth, GB/s (10^9 bytes/s)
    uint32_t queue_depth = 256;      ///< requests held; beyond it END_REQ is withheld

    /// The declared parameters (name, unit, description, allowed values of each key).
    static const sim::Params<SimpleMemoryConfig>& params();
    /// Throws ConfigError("key: message") on an invalid value.
    void validate() const;
};

}  // namespace stacksim::memory
