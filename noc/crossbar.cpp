// SPDX-License-Identifier: Apache-2.0
// Crossbar between the SMs' L1s (upstream ports) and the memory partitions (downstream ports).
#include "noc/crossbar.h"

#include <algorithm>

#include "sim/error.h"
#include "sim/mem_extension.h"
#include "sim/payload_pool.h"

namespace stacksim::noc {

Crossbar::Crossbar(sc_core::sc_module_name name, const CrossbarConfig& cfg, const common::AddressMap& map,
                   sim::ClockDomain& clock, sim::StatRegistry& stats)
    : sc_module(name), upstream("upstream"), downstream("downstream"), m_cfg(cfg), m_map(map), m_clock(clock) {
    upstream.on_request([this](int port, tlm::tlm_generic_payload& p) { return request(port, p); });
    downstream.on_end_req([this](int, tlm::tlm_generic_payload&) { m_clock.activate(*this); });
    downstream.on_response([this](int port, tlm::tlm_generic_payload& p) {
        m_clock.activate(*this);
        m_arrived.emplace_back(static_cast<uint32_t>(port), &p);
    });
    sim::StatGroup g(stats, std::string(this->name()));
    g.add("requests", m_requests, "requests switched to a memory partition", "packets");
    g.add("responses", m_responses, "responses switched back to an SM", "packets");
    g.add("request_bytes", m_request_bytes, "bytes of request packets (header + write data)", "bytes");
    g.add("response_bytes", m_response_bytes, "bytes of response packets (header + read data)", "bytes");
    g.add("output_blocked_cycles", m_blocked_cycles, "cycles a ready request waited for a busy or blocked output", "cycles");
}

void Crossbar::end_of_elaboration() {
    m_in.resize(upstream.size());
    m_ret.resize(upstream.size());
    m_ret_free.assign(upstream.size(), 0);
    m_out_free.assign(downstream.size(), 0);
    m_out_tx.assign(downstream.size(), Packet{nullptr, 0, 0});
    m_ret_tx.assign(upstream.size(), Packet{nullptr, 0, 0});
    m_in_listed.assign(upstream.size(), 0);
    m_ret_listed.assign(upstream.size(), 0);
    if (downstream.size() != m_map.partitions)
        throw std::logic_error("crossbar: one downstream port per memory partition is required");
}

uint64_t Crossbar::occupancy(const tlm::tlm_generic_payload& p, bool response) const {
    const sim::MemAccess a = sim::PayloadPool::ext(const_cast<tlm::tlm_generic_payload&>(p)).access;
    // Data travels with writes and atomics on the way in, with reads (page-table reads too) and
    // atomics back.
    const bool carries = a == sim::MemAccess::Atomic || a == (response ? sim::MemAccess::Read : sim::MemAccess::Write);
    uint64_t bytes = m_cfg.header_bytes + (carries ? p.get_data_length() : 0);
    return std::max<uint64_t>(1, (bytes + m_cfg.width_bytes - 1) / m_cfg.width_bytes);
}

bool Crossbar::request(int port, tlm::tlm_generic_payload& p) {
    m_clock.activate(*this);
    const auto i = static_cast<uint32_t>(port);
    if (m_in[i].size() >= m_cfg.queue_depth) return false;
    enqueue(i, p, m_clock.cycle());
    list(m_in_ports, m_in_listed, i);
    return true;
}

void Crossbar::enqueue(uint32_t port, tlm::tlm_generic_payload& p, uint64_t cycle) {
    m_in[port].push_back({&p, cycle + m_cfg.latency, m_map.partition_of(p.get_address())});
    m_source[&p] = port;
}

bool Crossbar::tick(uint64_t cycle) {
    for (auto& [port, p] : m_arrived) {
        (void)port;
        auto it = m_source.find(p);
        uint32_t i = it->second;
        m_source.erase(it);
        m_ret[i].push_back({p, cycle + m_cfg.latency, i});
        list(m_ret_ports, m_ret_listed, i);
    }
    m_arrived.clear();

    uint64_t next = ~uint64_t{0};
    // Packets whose last byte has crossed their port are handed on.
    auto take_due = [&](Packet& tx) -> tlm::tlm_generic_payload* {
        if (!tx.p) return nullptr;
        if (tx.ready > cycle) {
            next = std::min(next, tx.ready);
            return nullptr;
        }
        tlm::tlm_generic_payload* p = tx.p;
        tx.p = nullptr;
        return p;
    };
    for (size_t j = 0; j < m_out_tx.size(); ++j) {
        if (tlm::tlm_generic_payload* p = take_due(m_out_tx[j])) downstream.send(static_cast<int>(j), *p);
    }
    for (uint32_t i : m_ret_ports) {
        if (tlm::tlm_generic_payload* p = take_due(m_ret_tx[i])) upstream.respond(static_cast<int>(i), *p);
    }

    // Requests: each input offers its oldest packet; each output serialises one at a time.
    const size_t nin = m_in_ports.size();
    ++m_worked;
    const uint64_t turn = m_cfg.priority == CrossbarPriority::Worked ? m_worked : cycle;
    for (size_t k = 0; k < nin; ++k) {
        const size_t i = m_in_ports[(turn + k) % nin];  // rotating priority between inputs
        if (m_in[i].empty()) continue;
        Packet& front = m_in[i].front();
        const uint32_t j = front.port;
        if (front.ready > cycle) {
            next = std::min(next, front.ready);
            continue;
        }
        if (!downstream.can_send(static_cast<int>(j))) {
            ++m_blocked_cycles;
            continue;  // woken by END_REQ
        }
        if (m_out_free[j] > cycle || m_out_tx[j].p) {
            ++m_blocked_cycles;
            next = std::min(next, std::max(m_out_free[j], cycle + 1));
            continue;
        }
        tlm::tlm_generic_payload* p = front.p;
        m_in[i].pop_front();
        const uint64_t occ = occupancy(*p, false);
        m_out_free[j] = cycle + occ;
        m_out_tx[j] = {p, cycle + occ, j};
        next = std::min(next, cycle + occ);
        ++m_requests;
        m_request_bytes += occ * m_cfg.width_bytes;
        if (tlm::tlm_generic_payload* b = upstream.withheld(static_cast<int>(i))) {
            enqueue(static_cast<uint32_t>(i), *b, cycle);
            upstream.admit(static_cast<int>(i));
        }
        if (!m_in[i].empty()) next = std::min(next, cycle + 1);
    }
    // Responses: each upstream port serialises one packet at a time.
    for (uint32_t i : m_ret_ports) {
        if (m_ret[i].empty()) continue;
        Packet& front = m_ret[i].front();
        uint64_t due = std::max(front.ready, m_ret_free[i]);
        if (due > cycle || m_ret_tx[i].p) {
            next = std::min(next, std::max(due, cycle + 1));
            continue;
        }
        tlm::tlm_generic_payload* p = front.p;
        m_ret[i].pop_front();
        const uint64_t occ = occupancy(*p, true);
        m_ret_free[i] = cycle + occ;
        m_ret_tx[i] = {p, cycle + occ, static_cast<uint32_t>(i)};
        next = std::min(next, cycle + occ);
        ++m_responses;
        m_response_bytes += occ * m_cfg.width_bytes;
    }
    // Forget ports that have nothing left.
    size_t keep = 0;
    for (uint32_t i : m_in_ports)
        if (!m_in[i].empty()) m_in_ports[keep++] = i;
        else m_in_listed[i] = 0;
    m_in_ports.resize(keep);
    keep = 0;
    for (uint32_t i : m_ret_ports)
        if (!m_ret[i].empty() || m_ret_tx[i].p) m_ret_ports[keep++] = i;
        else m_ret_listed[i] = 0;
    m_ret_ports.resize(keep);
    if (!m_arrived.empty() || next <= cycle + 1) return true;
    if (next != ~uint64_t{0}) m_clock.wake_at(*this, next);
    return false;
}

}  // namespace stacksim::noc
