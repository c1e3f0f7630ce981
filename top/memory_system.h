// SPDX-License-Identifier: Apache-2.0
// Everything behind the SMs' L1s: the simple memory, or crossbar + L2 slices + DRAM channels.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include <systemc>

#include "memory/dram_model.h"
#include "memory/sector_cache.h"
#include "memory/simple_memory.h"
#include "noc/crossbar.h"
#include "noc/network_interconnect.h"
#include "sim/clock_domain.h"
#include "sim/stats.h"
#include "top/run_config.h"

namespace stacksim::top {

/// Builds the memory side selected by `memory.model`:
/// * "simple": one fixed-latency, bandwidth-limited memory;
/// * "hierarchy": an interconnect (`memory.interconnect`: the crossbar, or a mesh / 2.5D router
///   network, [memory.noc]) to `memory.map.partitions` partitions, each an L2 slice
///   ([memory.l2]) in front of a channel of the DRAM model `memory.dram.model` ([memory.dram]).
/// Requesters (L1s or SMs) bind with connect().
class MemorySystem : public sc_core::sc_module {
public:
    MemorySystem(sc_core::sc_module_name name, const RunConfig& cfg, sim::ClockDomain& core_clock,
                 sim::StatRegistry& stats);

    /// Binds an initiator socket (an L1's or SM's `downstream`) to the memory side's entry.
    template <typename Socket> void connect(Socket& s) {
        if (m_xbar)
            s.bind(m_xbar->upstream);
        else if (m_noc)
            s.bind(m_noc->upstream);
        else
            s.bind(m_simple->upstream);
    }

    /// Extra response latency of every DRAM channel: `f(channel, request)` DRAM cycles (capacity
    /// compression). Fixed-latency channels and the simple model have none.
    void set_dram_extra_latency(const std::function<uint32_t(uint32_t, const tlm::tlm_generic_payload&)>& f) {
        if (m_dram) m_dram->set_extra_latency(f);
    }

    /// The router network of a mesh or stacked interconnect, else null.
    const noc::Network* network() const { return m_noc ? &m_noc->network() : nullptr; }

private:
    sim::ClockDomain m_mem_clock;
    std::unique_ptr<sim::ClockDomain> m_xbar_clock;
    std::unique_ptr<memory::SimpleMemory> m_simple;
    std::unique_ptr<noc::Crossbar> m_xbar;
    std::unique_ptr<sim::ClockDomain> m_noc_clock;
    std::unique_ptr<noc::NetworkInterconnect> m_noc;
    std::vector<std::unique_ptr<memory::SectorCache>> m_l2;
    std::unique_ptr<memory::DramModel> m_dram;
};

}  // namespace stacksim::top
