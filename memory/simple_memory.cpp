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
    upstream.on_request([this](int port, tlm::tlm_generic_payload& p) { return accept(port, p, m_clock.cycle()); });
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

bool SimpleMemory::accept(int port, tlm::tlm_generic_payload& p, uint64_t now) {
    if (m_queue.size() >= m_cfg.queue_depth) return false;
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
    return true;
}

bool SimpleMemory::tick(uint64_t cycle) {
    while (!m_queue.empty() && m_queue.front().ready <= cycle) {
        Pending d = m_queue.front();
        m_queue.pop_front();
        upstream.respond(d.port, *d.payload);
    }
    upstream.admit_withheld([&](int port, tlm::tlm_generic_payload& p) { return accept(port, p, cycle); });
    if (!m_queue.empty()) m_clock.wake_at(*this, m_queue.front().ready);
    return false;
}

}  // namespace stacksim::memory
