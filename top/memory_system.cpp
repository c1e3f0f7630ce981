// SPDX-License-Identifier: Apache-2.0
// Everything behind the SMs' L1s: the simple memory, or crossbar + L2 slices + DRAM channels.
#include "top/memory_system.h"

#include <fmt/format.h>

#include "top/gpu_system.h"

namespace stacksim::top {

MemorySystem::MemorySystem(sc_core::sc_module_name name, const RunConfig& cfg, sim::ClockDomain& core_clock,
                           sim::StatRegistry& stats)
    : sc_module(name), m_mem_clock("memory_clock", period_ps(cfg.memory.clock_mhz)) {
    if (cfg.mem.model == MemoryModel::Simple) {
        m_simple = std::make_unique<memory::SimpleMemory>("memory", cfg.memory, m_mem_clock, stats);
        return;
    }
    if (cfg.mem.interconnect == Interconnect::Crossbar) {
        m_xbar_clock = std::make_unique<sim::ClockDomain>("crossbar_clock", period_ps(cfg.crossbar.clock_mhz));
        m_xbar = std::make_unique<noc::Crossbar>("crossbar", cfg.crossbar, cfg.address_map, *m_xbar_clock, stats);
    } else {
        m_noc_clock = std::make_unique<sim::ClockDomain>("noc_clock", period_ps(cfg.noc.clock_mhz));
        m_noc = std::make_unique<noc::NetworkInterconnect>("interconnect", cfg.noc, cfg.noc_network, cfg.address_map,
                                                           *m_noc_clock, stats);
    }
    // The DRAM model (memory.dram.model) makes its clock domain first, then one channel per partition.
    const memory::DramModelEnv env{cfg.dram, cfg.memory, cfg.address_map.partitions, m_mem_clock, stats};
    m_dram = memory::dram_models().create(cfg.dram.model);
    m_dram->elaborate(env);
    for (uint32_t j = 0; j < cfg.address_map.partitions; ++j) {
        auto l2 = std::make_unique<memory::SectorCache>(fmt::format("l2_{}", j).c_str(), cfg.l2, core_clock, stats);
        if (m_xbar)
            m_xbar->downstream.bind(l2->upstream);
        else
            m_noc->downstream.bind(l2->upstream);
        m_dram->add_channel(fmt::format("dram_{}", j), l2->downstream, env);
        m_l2.push_back(std::move(l2));
    }
}

}  // namespace stacksim::top
