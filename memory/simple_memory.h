// SPDX-License-Identifier: Apache-2.0
// Fixed-latency, bandwidth-limited memory behind a TLM target socket.
#pragma once
#include <cstdint>
#include <deque>

#include <systemc>
#include <tlm>

#include "memory/simple_memory_config.h"
#include "sim/clock_domain.h"
#include "sim/multi_target_port.h"
#include "sim/stats.h"

namespace stacksim::memory {

/// Serves requests in arrival order: each occupies the data bus for bytes / bandwidth and
/// is answered `latency` cycles after its transfer ends. Sleeps between responses.
/// Protocol (docs/protocol.md): BEGIN_REQ is answered TLM_UPDATED/END_REQ while the queue has
/// room; otherwise TLM_ACCEPTED, and END_REQ is sent on the backward path once room frees up,
/// to the withheld requests in the order they arrived.
class SimpleMemory : public sc_core::sc_module, public sim::Clocked {
public:
    sim::MultiTargetPort upstream;  ///< any number of initiators share `queue_depth`

    SimpleMemory(sc_core::sc_module_name name, const SimpleMemoryConfig& cfg,
                 sim::ClockDomain& clock, sim::StatRegistry& stats);

    bool tick(uint64_t cycle) override;

private:
    struct Pending {
        int port;
        tlm::tlm_generic_payload* payload;
        uint64_t ready;  ///< cycle the response is due
    };
    /// Takes `p` in at cycle `now` if the queue has room.
    bool accept(int port, tlm::tlm_generic_payload& p, uint64_t now);

    SimpleMemoryConfig m_cfg;
    sim::ClockDomain& m_clock;
    double m_bytes_per_cycle;
    double m_bus_free = 0;  ///< cycle (fractional) the data bus is next free
    std::deque<Pending> m_queue;

    sim::Counter m_reads, m_writes, m_atomics, m_bytes;
    sim::Average m_latency;
};

}  // namespace stacksim::memory
