// SPDX-License-Identifier: Apache-2.0
// DRAM model "timed": one DramChannel per partition (banks, row buffers, refresh, scheduler).
#include <vector>

#include "memory/dram_channel.h"
#include "memory/dram_model.h"

namespace stacksim::memory {

namespace {

class TimedDram final : public DramModel {
public:
    double peak_gbps(const DramChannelConfig& dram, const SimpleMemoryConfig&, uint32_t partitions) const override {
        return dram.peak_bandwidth_gbps() * partitions;
    }
    void elaborate(const DramModelEnv& env) override {
        m_clock = std::make_unique<sim::ClockDomain>("dram_clock", env.dram.period_ps());
    }
    void add_channel(const std::string& name, sim::InitiatorPort& l2, const DramModelEnv& env) override {
        auto dram = std::make_unique<DramChannel>(name.c_str(), env.dram, *m_clock, env.stats);
        l2.bind(dram->upstream);
        m_channels.push_back(std::move(dram));
    }
    void set_extra_latency(const std::function<uint32_t(uint32_t, const tlm::tlm_generic_payload&)>& f) override {
        for (uint32_t j = 0; j < m_channels.size(); ++j)
            m_channels[j]->set_extra_latency([f, j](const tlm::tlm_generic_payload& p) { return f(j, p); });
    }

private:
    std::unique_ptr<sim::ClockDomain> m_clock;
    std::vector<std::unique_ptr<DramChannel>> m_channels;
};

const bool registered = dram_models().add(
    "timed", "command-level DRAM channel with the timing, geometry and scheduler of [memory.dram] (its preset)",
    [] { return std::make_unique<TimedDram>(); });

}  // namespace

}  // namespace stacksim::memory
