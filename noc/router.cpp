// SPDX-License-Identifier: Apache-2.0
// Input-queued virtual-channel wormhole router: RC+VA, SA, ST with credit flow control.
#include "noc/router.h"

#include <algorithm>

namespace stacksim::noc {

Router::Router(unsigned id, const RouterParams& params, const Topology& topology)
    : m_id(id), m_p(params), m_topology(topology), m_vcs_per_class(params.vcs / kMessageClasses),
      m_buf(size_t{params.ports} * params.vcs * params.buffer_depth),
      m_in(size_t{params.ports} * params.vcs), m_credits(size_t{params.ports} * params.vcs, params.buffer_depth),
      m_out_busy(size_t{params.ports} * params.vcs, 0), m_sa_cand(size_t{params.ports} * params.ports, 0),
      m_sa_vc_ptr(params.ports, 0), m_port_buffered(params.ports, 0),
      m_wide(params.ports * params.vcs > SeparableAllocator::kMaxPorts),
      m_va(m_wide ? 1 : params.ports * params.vcs, m_wide ? 1 : params.ports * params.vcs, params.allocator_iterations),
      m_va_wide(m_wide ? params.ports * params.vcs : 1, m_wide ? params.ports * params.vcs : 1,
                params.allocator_iterations),
      m_sa(params.ports, params.ports, params.allocator_iterations) {}

void Router::receive_flit(unsigned port, const Flit& f, uint64_t cycle) {
    unsigned iv = port * m_p.vcs + f.vc;
    InputVc& vc = m_in[iv];
    if (vc.count >= m_p.buffer_depth) {
        ++m_overflows;
        return;
    }
    if (vc.count == 0) vc.front_since = cycle;
    unsigned slot = vc.head + vc.count;
    if (slot >= m_p.buffer_depth) slot -= m_p.buffer_depth;
    m_buf[size_t{iv} * m_p.buffer_depth + slot] = Entry{f, cycle};
    ++vc.count;
    ++m_buffered;
    ++m_port_buffered[port];
    m_nonempty[iv >> 6] |= uint64_t{1} << (iv & 63);
    if (vc.count > m_max_occupancy) m_max_occupancy = vc.count;
}

double Router::max_port_occupancy() const {
    unsigned most = 0;
    for (unsigned b : m_port_buffered) most = b > most ? b : most;
    return static_cast<double>(most) / (m_p.vcs * m_p.buffer_depth);
}

double Router::active_occupancy() const {
    const unsigned in_use = static_cast<unsigned>(__builtin_popcountll(m_nonempty[0]) + __builtin_popcountll(m_nonempty[1]));
    return in_use == 0 ? 0.0 : static_cast<double>(m_buffered) / (static_cast<double>(in_use) * m_p.buffer_depth);
}

void Router::receive_credit(unsigned port, unsigned vc) {
    uint32_t& c = m_credits[port * m_p.vcs + vc];
    if (c >= m_p.buffer_depth && !(m_p.terminal_ports >> port & 1))
        ++m_credit_overflows;
    else
        ++c;
}

unsigned Router::free_slots(unsigned port, MessageClass c) const {
    unsigned n = 0;
    const unsigned first = class_first_vc(c);
    for (unsigned v = first; v < first + m_vcs_per_class; ++v) n += m_credits[port * m_p.vcs + v];
    return n;
}

void Router::set_output_credits(unsigned port, unsigned credits) {
    for (unsigned v = 0; v < m_p.vcs; ++v) m_credits[port * m_p.vcs + v] = credits;
    if ((m_p.terminal_ports >> port & 1) && credits != ~0u) m_terminal_credits = true;
}

void Router::step(uint64_t cycle, std::vector<Departure>& out) {
    if (m_wide)
        step_with(m_va_wide, cycle, out);
    else
        step_with(m_va, cycle, out);
}

template <typename Va>
void Router::step_with(Va& va, uint64_t cycle, std::vector<Departure>& out) {
    const unsigned vcs = m_p.vcs, ports = m_p.ports;
    const uint64_t va_delay = m_p.pipeline_stages - 3, sa_delay = m_p.pipeline_stages - 2;
    bool any_sa = false;
    // Collect route computation, VC allocation and switch allocation requests.
    for (unsigned word = 0; word < (m_wide ? 2u : 1u); ++word)
    for (uint64_t pending = m_nonempty[word]; pending; pending &= pending - 1) {
        const unsigned iv = word * 64 + static_cast<unsigned>(__builtin_ctzll(pending));
        InputVc& vc = m_in[iv];
        const Entry& e = m_buf[size_t{iv} * m_p.buffer_depth + vc.head];
        if (vc.state == VcState::Idle) {
            const uint64_t since = m_p.route_at_head ? std::max(e.arrival, vc.front_since) : e.arrival;
            if (!e.flit.head || cycle < since + va_delay) continue;
            vc.out_port = m_topology.route(m_id, e.flit, this);
            vc.state = VcState::Routed;
        }
        if (vc.state == VcState::Routed) {
            unsigned first = class_first_vc(e.flit.mclass);
            for (unsigned ov = first; ov < first + m_vcs_per_class; ++ov)
                if (!m_out_busy[vc.out_port * vcs + ov]) va.request(iv, vc.out_port * vcs + ov);
            continue;
        }
        // Active: the front flit of the packet may bid for the switch. With route_at_head the
        // stages before SA are per-packet (RC, VA): a body flit bids from the cycle it is
        // written, as in BookSim's iq router; otherwise every flit passes them.
        const uint64_t ready = m_p.route_at_head && !e.flit.head ? e.arrival : e.arrival + sa_delay;
        if (cycle <= vc.va_cycle || cycle < ready) continue;
        if (m_credits[vc.out_port * vcs + vc.out_vc] == 0) continue;
        unsigned in_port = iv / vcs;
        m_sa.request(in_port, vc.out_port);
        m_sa_cand[in_port * ports + vc.out_port] |= uint64_t{1} << (iv - in_port * vcs);
        m_sa_used |= 1u << in_port;
        any_sa = true;
    }
    if (any_sa) {
        m_sa.allocate();
        for (unsigned in_port : m_sa.granted()) {
            unsigned o = static_cast<unsigned>(m_sa.grant(in_port));
            uint64_t& cand = m_sa_cand[in_port * ports + o];
            unsigned v = round_robin_pick(cand, m_sa_vc_ptr[in_port]);
            m_sa_vc_ptr[in_port] = (v + 1) % vcs;
            unsigned iv = in_port * vcs + v;
            InputVc& vc = m_in[iv];
            Entry& e = m_buf[size_t{iv} * m_p.buffer_depth + vc.head];
            Departure d{o, in_port, v, e.flit};
            d.flit.vc = static_cast<uint8_t>(vc.out_vc);
            if (d.flit.head) {
                // DLL: running mean of the cycles spent in each router, t_out - t_in here.
                uint32_t hop = d.flit.hops;
                uint64_t here = (cycle - e.arrival) << 8;
                uint64_t l = (uint64_t{d.flit.hop_latency} * hop + here) / (hop + 1);
                d.flit.hop_latency = static_cast<uint16_t>(l > 0xffff ? 0xffff : l);
            }
            if (++vc.head == m_p.buffer_depth) vc.head = 0;
            if (--vc.count == 0) m_nonempty[iv >> 6] &= ~(uint64_t{1} << (iv & 63));
            vc.front_since = cycle + 1;  // the next flit is at the front from the next cycle
            --m_buffered;
            --m_port_buffered[in_port];
            unsigned ov = o * vcs + vc.out_vc;
            if (m_terminal_credits || !(m_p.terminal_ports >> o & 1)) --m_credits[ov];
            if (d.flit.tail) {
                m_out_busy[ov] = 0;
                vc.state = VcState::Idle;
            }
            out.push_back(d);
        }
        // Clear every candidate mask set this cycle (granted or not).
        for (; m_sa_used; m_sa_used &= m_sa_used - 1) {
            unsigned p = static_cast<unsigned>(__builtin_ctz(m_sa_used));
            for (unsigned o = 0; o < ports; ++o) m_sa_cand[p * ports + o] = 0;
        }
    }
    if (va.has_requests()) {
        va.allocate();
        for (unsigned iv : va.granted()) {
            unsigned ov = static_cast<unsigned>(va.grant(iv));
            InputVc& vc = m_in[iv];
            m_out_busy[ov] = 1;
            vc.out_vc = ov % vcs;
            vc.state = VcState::Active;
            vc.va_cycle = cycle;
        }
    }
}

}  // namespace stacksim::noc
