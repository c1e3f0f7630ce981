// SPDX-License-Identifier: Apache-2.0
// The mesh network: routers, links as a timing wheel, injection queues, ejection and stats.
#include "noc/network.h"

#include <fmt/format.h>

#include "sim/clock_domain.h"
#include "sim/error.h"

namespace stacksim::noc {

void NetworkConfig::validate() const {
    auto fail = [](const char* key, const std::string& m) { throw sim::ConfigError(std::string(key) + ": " + m); };
    if (width < 1 || width > 256) fail("width", fmt::format("{} is out of range 1..256", width));
    if (height < 1 || height > 256) fail("height", fmt::format("{} is out of range 1..256", height));
    if (vcs < kMessageClasses || vcs > 12 || vcs % kMessageClasses != 0)
        fail("vcs", fmt::format("{} must be an even number in 2..12 (request and reply VC sets)", vcs));
    if (buffer_depth < 1 || buffer_depth > 1024) fail("buffer_depth", fmt::format("{} is out of range 1..1024", buffer_depth));
    if (pipeline_stages < 3 || pipeline_stages > 16)
        fail("pipeline_stages", fmt::format("{} is out of range 3..16", pipeline_stages));
    if (link_latency < 1 || link_latency > 64) fail("link_latency", fmt::format("{} is out of range 1..64", link_latency));
    if (!routing_registry().contains(routing)) {
        std::string known;
        for (auto& n : routing_registry().names()) known += (known.empty() ? "" : ", ") + n;
        fail("routing", fmt::format("unknown routing function '{}' (known: {})", routing, known));
    }
}

Network::Network(const NetworkConfig& cfg, sim::ClockDomain* domain) : m_cfg(cfg), m_domain(domain) {
    m_cfg.validate();
    m_routing = routing_registry().create(cfg.routing, cfg.width, cfg.height);
    RouterParams rp{kMeshPorts, cfg.vcs, cfg.buffer_depth, cfg.pipeline_stages};
    unsigned n = cfg.nodes();
    for (unsigned i = 0; i < n; ++i) {
        m_routers.push_back(std::make_unique<Router>(i, rp, *m_routing));
        m_routers.back()->set_output_credits(kLocal, ~uint32_t{0});
    }
    m_nis.resize(n);
    for (auto& ni : m_nis) ni.credits.assign(cfg.vcs, cfg.buffer_depth);
    m_router_active.assign(n, 0);
    m_active_routers.reserve(n);
    m_active_nis.reserve(n);
    m_keep.reserve(n);
    uint64_t size = 4;
    while (size < cfg.link_latency + 4) size *= 2;
    m_wheel.resize(size);
    m_wheel_mask = size - 1;
    m_departures.reserve(kMeshPorts);
}

void Network::set_source(PacketSource* source) {
    m_source = source;
    if (m_domain && source) m_domain->activate(*this);
}

void Network::enqueue(const Packet& p) {
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

int Network::neighbor(unsigned node, unsigned port) const {
    unsigned x = node % m_cfg.width, y = node / m_cfg.width;
    switch (port) {
    case kEast: return x + 1 < m_cfg.width ? static_cast<int>(node + 1) : -1;
    case kWest: return x > 0 ? static_cast<int>(node - 1) : -1;
    case kNorth: return y > 0 ? static_cast<int>(node - m_cfg.width) : -1;
    case kSouth: return y + 1 < m_cfg.height ? static_cast<int>(node + m_cfg.width) : -1;
    default: return static_cast<int>(node);
    }
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
    }
    unsigned v = static_cast<unsigned>(ni.cur_vc);
    if (ni.credits[v] == 0) return true;
    --ni.credits[v];
    Event e{EventKind::Flit, kLocal, static_cast<uint8_t>(v), node, Flit{}};
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
    if (!f.tail) return;
    ++m_stats.packets_ejected;
    double lat = static_cast<double>(cycle - f.inject_cycle);
    double net = static_cast<double>(cycle - f.network_cycle);
    m_stats.packet_latency.sample(lat);
    m_stats.network_latency.sample(net);
    m_stats.hops.sample(f.hops);
    if (m_on_eject) m_on_eject(f.packet, cycle);
    if (f.measured) {
        m_stats.measured_packet_latency.sample(lat);
        m_stats.measured_network_latency.sample(net);
        m_stats.measured_hops.sample(f.hops);
        --m_stats.measured_outstanding;
    }
}

void Network::handle(const Router::Departure& d, unsigned node, uint64_t cycle) {
    const uint64_t link = m_cfg.link_latency;
    // Credit for the freed input buffer slot, back to the upstream router or injection queue.
    if (d.in_port == kLocal) {
        schedule(cycle + 1 + link, Event{EventKind::NiCredit, 0, static_cast<uint8_t>(d.in_vc), node, Flit{}});
    } else {
        unsigned up = static_cast<unsigned>(neighbor(node, d.in_port));
        schedule(cycle + 1 + link, Event{EventKind::Credit, static_cast<uint8_t>(opposite_port(d.in_port)),
                                         static_cast<uint8_t>(d.in_vc), up, Flit{}});
    }
    // The flit: switch traversal next cycle, then the link.
    if (d.out_port == kLocal) {
        schedule(cycle + 2 + link, Event{EventKind::Eject, 0, 0, node, d.flit});
        return;
    }
    int down = neighbor(node, d.out_port);
    if (down < 0) throw sim::SimulationError(fmt::format("noc: router {} routed off the mesh", node));
    Event e{EventKind::Flit, static_cast<uint8_t>(opposite_port(d.out_port)), d.flit.vc,
            static_cast<uint32_t>(down), d.flit};
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
    if (m_pending || !m_active_nis.empty() || !m_active_routers.empty()) return true;
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
}

}  // namespace stacksim::noc
