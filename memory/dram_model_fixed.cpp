// SPDX-License-Identifier: Apache-2.0
// DRAM model "fixed": each partition's channel is the simple memory with 1/partitions of its bandwidth.
#include <vector>

#include "memory/dram_model.h"
#include "memory/simple_memory.h"

namespace stacksim::memory {

namespace {

class FixedDram final : public DramModel {
public:
    double peak_gbps(const DramChannelConfig&, const SimpleMemoryConfig& memory, uint32_t) const override {
        return memory.bandwidth_gbps;
    }
    void elaborate(const DramModelEnv&) override {}
    void add_channel(const std::string& name, sim::InitiatorPort& l2, const DramModelEnv& env) override {
        SimpleMemoryConfig fixed = env.memory;
        fixed.bandwidth_gbps = env.memory.bandwidth_gbps / env.partitions;
        auto channel = std::make_unique<SimpleMemory>(name.c_str(), fixed, env.memory_clock, env.stats);
        l2.bind(channel->upstream);
        m_channels.push_back(std::move(channel));
    }

private:
    std::vector<std::unique_ptr<SimpleMemory>> m_channels;
};

const bool registered = dram_models().add(
    "fixed",
    "the simple memory of [memory] (fixed latency, bandwidth-limited) with 1/partitions of its bandwidth; the "
    "timing keys of [memory.dram] are checked, not used",
    [] { return std::make_unique<FixedDram>(); });

}  // namespace

}  // namespace stacksim::memory
