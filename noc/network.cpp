// SPDX-License-Identifier: Apache-2.0
// The network: routers on a topology, links as a timing wheel, injection queues, ejection and stats.
#include "noc/network.h"

#include <fmt/format.h>

#include <algorithm>

#include "sim/clock_domain.h"
#include "sim/error.h"

namespace stacksim::noc {

Network::Network(const NetworkConfig& cfg, sim::ClockDomain* domain) : m_cfg(cfg), m_domain(domain) {
    m_cfg.validate();
    m_topology = Topology::create(m_cfg);
    const Topology& t = *m_topology;
    unsigned max_ports = 0;
    for (unsigned r = 0; r < t.routers(); ++r) {
        RouterParams rp{t.ports(r), 0, cfg.vcs, cfg.buffer_depth, cfg.pipeline_stages, cfg.allocator_iterations,
                        cfg.route_stage == "head"};
        for (unsigned p = 0; p < rp.ports; ++p)
            if (t.link(r, p).kind == LinkKind::Terminal) rp.terminal_ports |= uint64_t{1} << p;
        m_routers.push_back(std::make_unique<Router>(r, rp, t));
        for (unsigned p = 0; p < rp.ports; ++p)
            if (rp.terminal_ports >> p & 1)
                m_routers.back()->set_output_credits(p, cfg.eject_credits ? cfg.eject_credits : ~uint32_t{0});
        max_ports = std::max(max_ports, rp.ports);
    }
    if (t.layered()) m_policy = layer_policies().create(cfg.layer_policy, LayerPolicyEnv{t, m_routers});
    const unsigned n = t.routers();
    m_nis.resize(t.terminals());
    for (auto& ni : m_nis) ni.credits.assign(cfg.vcs, cfg.buffer_depth);
    m_router_active.assign(n, 0);
    m_active_routers.reserve(n);
    m_active_nis.reserve(t.terminals());
    m_keep.reserve(std::max<size_t>(n, t.terminals()));
    uint64_t size = 4;
    while (size < cfg.link_latency + cfg.credit_delay + 4) size *= 2;
    m_wheel.resize(size);
    m_wheel_mask = size - 1;
    m_departures.reserve(max_ports);
}

void Network::set_source(PacketSource* source) {
    m_source = source;
    if (m_domain && source) m_domain->activate(*this);
}

void Network::enqueue(const Packet& p) {
    if (p.src >= m_nis.size() || p.dst >= m_nis.size())
        throw sim::SimulationError(fmt::format("noc: packet {} from {} to {}: the network has {} terminals", p.id, p.src,
                                               p.dst, m_nis.size()));
    if (m_cfg.eject_credits && p.flits > m_cfg.eject_credits)
        throw sim::SimulationError(fmt::format("noc: packet {} has {} flits, more than eject_credits {}", p.id, p.flits,
                                               m_cfg.eject_credits));
    Ni& ni = m_nis[p.src];
    ni.queue.push_back(p);
    ++m_stats.packets_created;
    if (p.measured) ++m_stats.measured_outstanding;
    if (!ni.active) {
        ni.active = true;
        m_active_nis.push_back(p.src);
    }
    if (m_domain) m_domain->activate(*this);
}

uint64_t Network::queued_packets() const {
    uint64_t n = 0;
    for (auto& ni : m_nis) n += ni.queue.size();
    return n;
}

void Network::consume(unsigned terminal, unsigned vc, unsigned flits) {
    Router& r = *m_routers[m_topology->terminal_router(terminal)];
    unsigned port = m_topology->terminal_port(terminal);
    for (unsigned i = 0; i < flits; ++i) r.receive_credit(port, vc);
}

void Network::schedule(uint64_t at, const Event& e) {
    m_wheel[at & m_wheel_mask].push_back(e);
    ++m_pending;
}

void Network::deliver(uint64_t cycle) {
    auto& slot = m_wheel[cycle & m_wheel_mask];
    for (const Event& e : slot) {
        switch (e.kind) {
        case EventKind::Flit:
            m_routers[e.node]->receive_flit(e.port, e.flit, cycle);
            if (!m_router_active[e.node]) {
                m_router_active[e.node] = 1;
                m_active_routers.push_back(e.node);
            }
            break;
        case EventKind::Credit: m_routers[e.node]->receive_credit(e.port, e.vc); break;
        case EventKind::NiCredit: ++m_nis[e.node].credits[e.vc]; break;
        case EventKind::Eject: eject(e.flit, cycle); break;
        }
    }
    m_pending -= slot.size();
    slot.clear();
}

bool Network::inject(Ni& ni, unsigned node, uint64_t cycle) {
    const Packet& p = ni.queue.front();
    if (ni.cur_vc < 0) {
        unsigned per = m_cfg.vcs / kMessageClasses;
        unsigned first = static_cast<unsigned>(p.mclass) * per;
        for (unsigned k = 0; k < per; ++k) {
            unsigned v = first + (ni.rr + k) % per;
            if (ni.credits[v] > 0) {
                ni.cur_vc = static_cast<int>(v);
                ni.rr = (ni.rr + k + 1) % per;
                break;
            }
        }
        if (ni.cur_vc < 0) return true;
        ni.network_cycle = cycle;
        ++m_stats.packets_injected;
        // Memory packets cross the interposer (when there is one); the policy places the rest.
        ni.lower = false;
        if (m_topology->is_memory(p.src) || m_topology->is_memory(p.dst)) {
            ++m_stats.memory_packets;
            ni.lower = m_policy != nullptr;
        } else if (m_policy && m_policy->divert(p.src, p.dst, cycle)) {
            ni.lower = true;
            ++m_stats.diverted_packets;
        }
    }
    unsigned v = static_cast<unsigned>(ni.cur_vc);
    if (ni.credits[v] == 0) return true;
    --ni.credits[v];
    Event e{EventKind::Flit, static_cast<uint8_t>(m_topology->terminal_port(node)), static_cast<uint8_t>(v),
            m_topology->terminal_router(node), Flit{}};
    Flit& f = e.flit;
    f.packet = p.id;
    f.inject_cycle = p.inject_cycle;
    f.network_cycle = ni.network_cycle;
    f.src = p.src;
    f.dst = p.dst;
    f.vc = static_cast<uint8_t>(v);
    f.mclass = p.mclass;
    f.head = ni.sent == 0;
    f.tail = ni.sent + 1 == p.flits;
    f.measured = p.measured;
    f.lower = ni.lower;
    schedule(cycle + 1, e);
    ++m_stats.flits_injected;
    if (++ni.sent == p.flits) {
        ni.sent = 0;
        ni.cur_vc = -1;
        ni.queue.pop_front();
    }
    return !ni.queue.empty();
}

void Network::eject(const Flit& f, uint64_t cycle) {
    ++m_stats.flits_ejected;
    if (cycle >= m_win_begin && cycle < m_win_end) ++m_stats.window_flits_ejected;
    if (f.head && m_policy) m_policy->received(f, cycle);
    if (!f.tail) return;
    ++m_stats.packets_ejected;
    double lat = static_cast<double>(cycle - f.inject_cycle);
    double net = static_cast<double>(cycle - f.network_cycle);
    m_stats.packet_latency.sample(lat);
    m_stats.network_latency.sample(net);
    m_stats.hops.sample(f.hops);
    if (m_on_tail) m_on_tail(f, cycle);
    if (f.measured) {
        m_stats.measured_packet_latency.sample(lat);
        (f.lower ? m_stats.lower_packet_latency : m_stats.upper_packet_latency).sample(lat);
        m_stats.measured_network_latency.sample(net);
        m_stats.measured_hops.sample(f.hops);
        --m_stats.measured_outstanding;
    }
}

void Network::handle(const Router::Departure& d, unsigned node, uint64_t cycle) {
    const uint64_t link = m_cfg.link_latency;
    const Topology& t = *m_topology;
    // Credit for the freed input buffer slot, back to the upstream router or injection queue.
    const PortLink& up = t.link(node, d.in_port);
    if (up.kind == LinkKind::Terminal)
        schedule(cycle + 1 + link + m_cfg.credit_delay, Event{EventKind::NiCredit, 0, static_cast<uint8_t>(d.in_vc),
                                         static_cast<uint32_t>(up.terminal), Flit{}});
    else
        schedule(cycle + 1 + link + m_cfg.credit_delay, Event{EventKind::Credit, up.port, static_cast<uint8_t>(d.in_vc),
                                         static_cast<uint32_t>(up.router), Flit{}});
    // The flit: switch traversal next cycle, then the link.
    const PortLink& down = t.link(node, d.out_port);
    switch (down.kind) {
    case LinkKind::Terminal:
        schedule(cycle + 2 + link, Event{EventKind::Eject, 0, 0, static_cast<uint32_t>(down.terminal), d.flit});
        return;
    case LinkKind::None:
        throw sim::SimulationError(fmt::format("noc: router {} routed packet {} to unconnected port {}", node,
                                               d.flit.packet, d.out_port));
    case LinkKind::Upper: ++m_stats.upper_flit_hops; break;
    case LinkKind::Lower:
        ++m_stats.lower_flit_hops;
        if (down.edge) ++m_stats.edge_flit_hops;
        break;
    case LinkKind::Vertical: ++m_stats.vertical_flit_hops; break;
    }
    Event e{EventKind::Flit, down.port, d.flit.vc, static_cast<uint32_t>(down.router), d.flit};
    ++e.flit.hops;
    ++m_stats.flit_hops;
    schedule(cycle + 2 + link, e);
}

bool Network::tick(uint64_t cycle) {
    if (m_source) {
        if (m_source->next_cycle() <= cycle) m_source->generate(cycle, *this);
    }
    if (m_pending) deliver(cycle);
    // Injection queues.
    m_keep.clear();
    for (unsigned node : m_active_nis) {
        Ni& ni = m_nis[node];
        if (inject(ni, node, cycle))
            m_keep.push_back(node);
        else
            ni.active = false;
    }
    m_active_nis.swap(m_keep);
    // Routers holding flits.
    m_keep.clear();
    for (unsigned node : m_active_routers) {
        Router& r = *m_routers[node];
        m_departures.clear();
        r.step(cycle, m_departures);
        for (const auto& d : m_departures) handle(d, node, cycle);
        if (r.busy())
            m_keep.push_back(node);
        else
            m_router_active[node] = 0;
    }
    m_active_routers.swap(m_keep);
    bool background = false;
    if (m_policy && m_policy->busy()) {
        m_policy->tick(cycle);
        background = m_policy->busy();
    }
    if (m_pending || !m_active_nis.empty() || !m_active_routers.empty() || background) return true;
    m_next_wake = m_source ? m_source->next_cycle() : ~uint64_t{0};
    if (m_domain && m_next_wake != ~uint64_t{0}) m_domain->wake_at(*this, m_next_wake);
    return false;
}

void Network::register_stats(sim::StatGroup& g) const {
    g.add("packets_created", m_stats.packets_created, "packets put in injection queues", "packets");
    g.add("packets_injected", m_stats.packets_injected, "packets whose head entered the network", "packets");
    g.add("flits_injected", m_stats.flits_injected, "flits that entered the network", "flits");
    g.add("packets_ejected", m_stats.packets_ejected, "packets whose tail was ejected", "packets");
    g.add("flits_ejected", m_stats.flits_ejected, "flits ejected", "flits");
    g.add("flit_hops", m_stats.flit_hops, "router-to-router link traversals", "flits");
    g.add("packet_latency", m_stats.packet_latency, "creation to tail ejection", "cycles");
    g.add("network_latency", m_stats.network_latency, "head injection to tail ejection", "cycles");
    g.add("hops", m_stats.hops, "router-to-router links per packet", "hops");
    g.add("upper_flit_hops", m_stats.upper_flit_hops, "link traversals inside the upper (or only) layer", "flits");
    g.add("lower_flit_hops", m_stats.lower_flit_hops, "link traversals inside the interposer layer", "flits");
    g.add("vertical_flit_hops", m_stats.vertical_flit_hops, "vertical link traversals", "flits");
    g.add("edge_flit_hops", m_stats.edge_flit_hops, "interposer traversals into a router hosting controllers", "flits");
    g.add("memory_packets", m_stats.memory_packets, "packets to or from a memory controller", "packets");
    g.add("diverted_packets", m_stats.diverted_packets, "coherence packets sent over the interposer", "packets");
    g.add("upper_packet_latency", m_stats.upper_packet_latency, "measured packets on the upper layer", "cycles");
    g.add("lower_packet_latency", m_stats.lower_packet_latency, "measured packets over the interposer", "cycles");
    if (m_policy) {
        sim::StatGroup pg(g.registry(), g.prefix() + ".policy");
        m_policy->register_stats(pg);
    }
}

}  // namespace stacksim::noc
