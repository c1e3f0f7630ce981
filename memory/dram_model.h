// SPDX-License-Identifier: Apache-2.0
// DRAM models: what sits behind each L2 slice (memory.dram.model), the interface and its registry.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <tlm>

#include "memory/dram_timing.h"
#include "memory/simple_memory_config.h"
#include "sim/clock_domain.h"
#include "sim/initiator_port.h"
#include "sim/registry.h"
#include "sim/stats.h"

namespace stacksim::memory {

/// What a DRAM model builds its channels from.
struct DramModelEnv {
    const DramChannelConfig& dram;      ///< [memory.dram]
    const SimpleMemoryConfig& memory;   ///< [memory] (the simple memory's settings)
    uint32_t partitions = 1;            ///< channels, one per L2 slice
    sim::ClockDomain& memory_clock;     ///< the [memory] clock domain
    sim::StatRegistry& stats;
};

/// The memory channels behind the L2 slices, one per partition. Made by name from
/// dram_models() (memory.dram.model); owns its channels and any clock domain of theirs.
class DramModel {
public:
    virtual ~DramModel() = default;
    /// Peak bandwidth of all channels together, GB/s (from the configuration alone).
    virtual double peak_gbps(const DramChannelConfig& dram, const SimpleMemoryConfig& memory,
                             uint32_t partitions) const = 0;
    /// Called once before the first add_channel (clock domains are made here).
    virtual void elaborate(const DramModelEnv& env) = 0;
    /// Makes the channel named `name` and binds `l2` (its L2 slice's downstream port) to it.
    virtual void add_channel(const std::string& name, sim::InitiatorPort& l2, const DramModelEnv& env) = 0;
    /// Extra response latency of channel j's requests, in its cycles (capacity compression);
    /// models without a command timing ignore it.
    virtual void set_extra_latency(const std::function<uint32_t(uint32_t, const tlm::tlm_generic_payload&)>& f) {
        (void)f;
    }
};

using DramModelRegistry = sim::Registry<DramModel>;
/// The DRAM models by name: "timed" (memory/dram_model_timed.cpp), "fixed" (dram_model_fixed.cpp).
DramModelRegistry& dram_models();

}  // namespace stacksim::memory
