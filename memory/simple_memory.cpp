// SPDX-License-Identifier: Apache-2.0
// Fixed-latency, bandwidth-limited memory behind a TLM target socket.
#include "memory/simple_memory.h"

#include <cmath>

#include <fmt/format.h>

#include "sim/error.h"
#include "sim/mem_extension.h"
#include "sim/payload_pool.h"

namespace stacksim::memory {

SimpleMemory::SimpleMemory(sc_core::sc_module_name name, const SimpleMemoryConfig& cfg,
                           sim::ClockDomain& clock, sim::StatRegistry& stats)
    : sc_module(name), upstream("upstream"), m_cfg(cfg), m_clock(clock),
      m_bytes_per_cycle(cfg.bandwidth_gbps * 1e3 / cfg.clock_mhz) {
    upstream.register_nb_transport_fw(this, &SimpleMemory::nb_transport_fw);
    sim::StatGroup g(stats, std::string(this->name()));
    g.add("reads", m_reads, "read requests served", "requests");
    g.add("writes", m_writes, "write requests served", "requests");
    g.add("atomics", m_atomics, "atomic requests served", "requests");
    g.add("bytes", m_bytes, "data bytes transferred", "bytes");
    g.add("latency", m_latency, "request latency from acceptance to response", "cycles");
    const double period_ns = 1e3 / cfg.clock_mhz;
    g.add_formula("bandwidth_gbps", [this, period_ns] {
        uint64_t cycles = m_clock.cycle();
        return cycles ? static_cast<double>(m_bytes.value()) / (static_cast<double>(cycles) * period_ns) : 0.0;
    }, "average data bandwidth over the run", "GB/s");
}

void SimpleMemory::accept(int port, tlm::tlm_generic_payload& p, uint64_t now) {
    double start = std::max(m_bus_free, static_cast<double>(now));
    m_bus_free = start + p.get_data_length() / m_bytes_per_cycle;
    uint64_t ready = std::max(static_cast<uint64_t>(std::ceil(m_bus_free)) + m_cfg.latency, now + 1);
    if (m_queue.empty()) m_clock.wake_at(*this, ready);
    m_queue.push_back({port, &p, ready});
    m_bytes += p.get_data_length();
    m_latency.sample(static_cast<double>(ready - now));
    switch (sim::PayloadPool::ext(p).access) {
    case sim::MemAccess::Read: ++m_reads; break;
    case sim::MemAccess::Write: ++m_writes; break;
    case sim::MemAccess::Atomic: ++m_atomics; break;
    }
}

tlm::tlm_sync_enum SimpleMemory::nb_transport_fw(int port, tlm::tlm_generic_payload& p,
                                                 tlm::tlm_phase& phase, sc_core::sc_time&) {
    if (phase == tlm::BEGIN_REQ) {
        if (m_queue.size() < m_cfg.queue_depth) {
            accept(port, p, m_clock.cycle());
            phase = tlm::END_REQ;
            return tlm::TLM_UPDATED;
        }
        m_waiting.emplace_back(port, &p);
        return tlm::TLM_ACCEPTED;
    }
    // END_RESP: nothing to do (responses are answered TLM_COMPLETED by the SMs).
    return tlm::TLM_COMPLETED;
}

bool SimpleMemory::tick(uint64_t cycle) {
    while (!m_queue.empty() && m_queue.front().ready <= cycle) {
        Pending d = m_queue.front();
        m_queue.pop_front();
        d.payload->set_response_status(tlm::TLM_OK_RESPONSE);
        tlm::tlm_phase phase = tlm::BEGIN_RESP;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        upstream[static_cast<size_t>(d.port)]->nb_transport_bw(*d.payload, phase, delay);
    }
    while (!m_waiting.empty() && m_queue.size() < m_cfg.queue_depth) {
        auto [port, p] = m_waiting.front();
        m_waiting.pop_front();
        accept(port, *p, cycle);
        tlm::tlm_phase phase = tlm::END_REQ;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        upstream[static_cast<size_t>(port)]->nb_transport_bw(*p, phase, delay);
    }
    if (!m_queue.empty()) m_clock.wake_at(*this, m_queue.front().ready);
    return false;
}

}  // namespace stacksim::memory
