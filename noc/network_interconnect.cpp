// SPDX-License-Identifier: Apache-2.0
// The SM-to-memory-partition interconnect as a router network (mesh or 2.5D stacked).
#include "noc/network_interconnect.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "sim/error.h"
#include "sim/mem_extension.h"
#include "sim/payload_pool.h"

namespace stacksim::noc {

NetworkInterconnect::NetworkInterconnect(sc_core::sc_module_name name, const NocInterconnectConfig& cfg,
                                         const NetworkConfig& net, const common::AddressMap& map,
                                         sim::ClockDomain& clock, sim::StatRegistry& stats)
    : sc_module(name), upstream("upstream"), downstream("downstream"), m_cfg(cfg), m_map(map), m_clock(clock),
      m_net(net, nullptr), m_cores(net.nodes()) {
    cfg.validate();
    if (net.memory_controllers != map.partitions)
        throw std::logic_error("network interconnect: one memory controller per memory partition is required");
    if (net.eject_credits == 0)
        throw std::logic_error("network interconnect: eject_credits must be set (back-pressure from the partitions)");
    upstream.on_request([this](int sm, tlm::tlm_generic_payload& p) { return admit(static_cast<uint32_t>(sm), p); });
    upstream.on_end_resp(
        [this](int sm, tlm::tlm_generic_payload& p) { accepted_if_front(static_cast<uint32_t>(sm), p); });
    downstream.on_end_req(
        [this](int port, tlm::tlm_generic_payload& p) { accepted_if_front(m_cores + static_cast<uint32_t>(port), p); });
    downstream.on_response([this](int port, tlm::tlm_generic_payload& p) { response(port, p); });
    m_net.set_tail_hook([this](const Flit& f, uint64_t) { m_tails.push_back(f); });
    const unsigned terms = net.terminals();
    m_held.resize(terms);
    m_held_listed.assign(terms, 0);
    m_held_flits.assign(size_t{terms} * net.vcs, 0);

    sim::StatGroup g(stats, std::string(this->name()));
    g.add("requests", m_requests, "request packets sent to a memory partition", "packets");
    g.add("responses", m_responses, "response packets sent back to an SM", "packets");
    g.add("request_flits", m_request_flits, "flits of request packets (header + write data)", "flits");
    g.add("response_flits", m_response_flits, "flits of response packets (header + read data)", "flits");
    g.add("request_bytes", m_request_bytes, "bytes of request packets (flits x flit_bytes)", "bytes");
    g.add("response_bytes", m_response_bytes, "bytes of response packets (flits x flit_bytes)", "bytes");
    g.add("request_latency", m_request_latency, "request packets: creation to tail ejected", "cycles");
    g.add("response_latency", m_response_latency, "response packets: creation to tail ejected", "cycles");
    g.add("request_network_latency", m_request_net_latency, "request packets: head injected to tail ejected", "cycles");
    g.add("response_network_latency", m_response_net_latency, "response packets: head injected to tail ejected",
          "cycles");
    g.add("input_blocked", m_input_blocked, "requests whose END_REQ was withheld (queue_depth reached)", "requests");
    g.add("held_cycles", m_held_cycles, "cycles ejected packets waited for their receiver to accept them", "cycles");
    g.add_formula("max_held_flits", [this] { return static_cast<double>(m_max_held); },
                  "most flits held at one terminal VC waiting for acceptance", "flits");
    sim::StatGroup ng(stats, std::string(this->name()) + ".net");
    m_net.register_stats(ng);
}

void NetworkInterconnect::end_of_elaboration() {
    m_sms = static_cast<uint32_t>(upstream.size());
    if (m_sms > m_cores)
        throw sim::ConfigError(fmt::format("{}: {} SMs but the network has only {} cores", name(), m_sms, m_cores));
    if (downstream.size() != m_map.partitions)
        throw std::logic_error("network interconnect: one downstream port per memory partition is required");
    m_in_network.assign(m_sms, 0);
}

uint32_t NetworkInterconnect::flits(const tlm::tlm_generic_payload& p, bool response) const {
    const sim::MemAccess a = sim::PayloadPool::ext(const_cast<tlm::tlm_generic_payload&>(p)).access;
    // Data travels with writes and atomics on the way in, with reads (page-table reads too) and
    // atomics back.
    const bool carries = a == sim::MemAccess::Atomic || a == (response ? sim::MemAccess::Read : sim::MemAccess::Write);
    const uint64_t bytes = m_cfg.header_bytes + (carries ? p.get_data_length() : 0);
    return static_cast<uint32_t>(std::max<uint64_t>(1, (bytes + m_cfg.flit_bytes - 1) / m_cfg.flit_bytes));
}

void NetworkInterconnect::send(tlm::tlm_generic_payload& p, uint32_t src, uint32_t dst, bool response) {
    const uint32_t n = flits(p, response);
    if (n > m_net.config().eject_credits)
        throw sim::SimulationError(fmt::format("{}: a {}-byte {} needs {} flits, more than a terminal holds ({}); "
                                               "raise memory.noc.flit_bytes or buffer_depth",
                                               name(), p.get_data_length(), response ? "response" : "request", n,
                                               m_net.config().eject_credits));
    const uint64_t id = m_next_id++;
    m_packets.emplace(id, InFlight{&p, n, response});
    Packet pk;
    pk.id = id;
    pk.inject_cycle = m_clock.cycle();
    pk.src = src;
    pk.dst = dst;
    pk.flits = n;
    pk.mclass = response ? MessageClass::Reply : MessageClass::Request;
    pk.measured = true;  // fills the per-layer latency stats
    m_net.enqueue(pk);
    if (response) {
        ++m_responses;
        m_response_flits += n;
        m_response_bytes += uint64_t{n} * m_cfg.flit_bytes;
    } else {
        ++m_requests;
        m_request_flits += n;
        m_request_bytes += uint64_t{n} * m_cfg.flit_bytes;
    }
    m_clock.activate(*this);
}

void NetworkInterconnect::request(uint32_t sm, tlm::tlm_generic_payload& p) {
    const uint32_t j = m_map.partition_of(p.get_address());
    m_source[&p] = sm;
    ++m_in_network[sm];
    send(p, sm, m_cores + j, false);
}

void NetworkInterconnect::list(uint32_t terminal) {
    if (!m_held_listed[terminal]) {
        m_held_listed[terminal] = 1;
        m_held_list.push_back(terminal);
    }
}

void NetworkInterconnect::accepted(uint32_t terminal) {
    auto& q = m_held[terminal];
    const Held h = q.front();
    q.pop_front();
    m_held_flits[size_t{terminal} * m_net.config().vcs + h.vc] -= h.flits;
    m_net.consume(terminal, h.vc, h.flits);
    m_held_cycles += m_clock.cycle() - h.since;
    m_clock.activate(*this);
}

void NetworkInterconnect::offer(uint32_t terminal, uint64_t) {
    auto& q = m_held[terminal];
    if (q.empty() || q.front().offered) return;
    Held& h = q.front();
    h.offered = true;
    const uint64_t id = h.packet;
    tlm::tlm_generic_payload* p = h.p;
    const bool done = h.response ? upstream.respond(static_cast<int>(terminal), *p)
                                 : downstream.send(static_cast<int>(terminal - m_cores), *p);
    // Otherwise END_REQ / END_RESP follows (accepted_if_front); the guard is for a receiver
    // that accepted it re-entrantly.
    if (done && !q.empty() && q.front().packet == id) accepted(terminal);
}

void NetworkInterconnect::accepted_if_front(uint32_t terminal, const tlm::tlm_generic_payload& p) {
    const auto& q = m_held[terminal];
    if (!q.empty() && q.front().offered && q.front().p == &p) accepted(terminal);
}

bool NetworkInterconnect::admit(uint32_t sm, tlm::tlm_generic_payload& p) {
    m_clock.activate(*this);
    if (m_in_network[sm] >= m_cfg.queue_depth) {
        ++m_input_blocked;
        return false;
    }
    request(sm, p);
    return true;
}

void NetworkInterconnect::response(int port, tlm::tlm_generic_payload& p) {
    const uint32_t t = m_cores + static_cast<uint32_t>(port);
    auto it = m_source.find(&p);
    if (it == m_source.end())
        throw sim::SimulationError(fmt::format("{}: a response from partition {} for no request", name(), port));
    const uint32_t sm = it->second;
    m_source.erase(it);
    send(p, t, sm, true);
}

bool NetworkInterconnect::tick(uint64_t cycle) {
    const bool again = m_net.tick(cycle);
    const unsigned vcs = m_net.config().vcs;
    for (const Flit& f : m_tails) {
        auto it = m_packets.find(f.packet);
        const InFlight in = it->second;
        m_packets.erase(it);
        const double lat = static_cast<double>(cycle - f.inject_cycle);
        const double net = static_cast<double>(cycle - f.network_cycle);
        if (in.response) {
            m_response_latency.sample(lat);
            m_response_net_latency.sample(net);
        } else {
            m_request_latency.sample(lat);
            m_request_net_latency.sample(net);
            auto s = m_source.find(in.p);
            if (s != m_source.end()) --m_in_network[s->second];
        }
        m_held[f.dst].push_back(Held{f.packet, in.p, in.flits, f.vc, false, in.response, cycle});
        uint32_t& held = m_held_flits[size_t{f.dst} * vcs + f.vc];
        held += in.flits;
        m_max_held = std::max(m_max_held, held);
        if (held > m_net.config().eject_credits)
            throw sim::SimulationError(fmt::format("{}: terminal {} VC {} holds {} flits, more than its {} credits",
                                                   name(), f.dst, f.vc, held, m_net.config().eject_credits));
        list(f.dst);
    }
    m_tails.clear();

    // Hand on the oldest packet of each terminal (one per terminal and cycle).
    const size_t n = m_held_list.size();
    for (size_t k = 0; k < n; ++k) offer(m_held_list[k], cycle);

    // SMs whose END_REQ was withheld, in the order they were refused.
    upstream.admit_withheld([this](int port, tlm::tlm_generic_payload& p) {
        const auto sm = static_cast<uint32_t>(port);
        if (m_in_network[sm] >= m_cfg.queue_depth) return false;
        request(sm, p);
        return true;
    });

    bool waiting = false;  // a held packet not yet offered (next cycle)
    size_t keep = 0;
    for (uint32_t t : m_held_list) {
        if (m_held[t].empty()) {
            m_held_listed[t] = 0;
            continue;
        }
        m_held_list[keep++] = t;
        waiting |= !m_held[t].front().offered;
    }
    m_held_list.resize(keep);
    return again || waiting;
}

}  // namespace stacksim::noc
