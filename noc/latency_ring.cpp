// SPDX-License-Identifier: Apache-2.0
// The DLL latency-propagation ring.
#include "noc/latency_ring.h"

#include "sim/error.h"

namespace stacksim::noc {

namespace {
unsigned bits_for(unsigned n) {
    unsigned b = 0;
    while ((1u << b) < n) ++b;
    return b;
}
}  // namespace

LatencyRing::LatencyRing(unsigned stops, unsigned links, unsigned hop_cycles, unsigned buffer)
    : m_stops(stops), m_links(links), m_hop(hop_cycles), m_buffer(buffer), m_queue(stops) {
    if (stops < 1 || links < 1 || (links & (links - 1)) || links > (1u << bits_for(stops)) || hop_cycles < 1)
        throw sim::ConfigError("ring_links: must be a power of two no larger than the grid count rounded up");
    m_shift = bits_for(stops) - bits_for(links);
    m_slots.resize(size_t{links} * stops);
}

bool LatencyRing::send(unsigned at, const CongestionMessage& m) {
    ++m_sent;
    if (m.target == at) {
        m_local.push_back(m);
        return true;
    }
    auto& q = m_queue[at];
    if (q.size() >= m_buffer) {
        ++m_dropped;
        return false;
    }
    q.push_back(m);
    ++m_queued;
    return true;
}

void LatencyRing::tick(uint64_t cycle, std::vector<CongestionMessage>& out) {
    if (cycle % m_hop != 0 || cycle == m_last_move) return;
    m_last_move = cycle;
    // Every register moves one stop on; a message at its target leaves the ring.
    m_step = (m_step + 1) % m_stops;
    if (m_in_flight)
        for (unsigned l = 0; l < m_links; ++l)
            for (unsigned s = 0; s < m_stops; ++s) {
                Slot& slot = at(l, s);
                if (slot.full && slot.m.target == s) {
                    slot.full = false;
                    --m_in_flight;
                    ++m_delivered;
                    m_latency.sample(static_cast<double>(cycle - slot.m.created));
                    out.push_back(slot.m);
                }
            }
    // Injection into empty registers only: per stop, the oldest queued message of each link.
    if (m_queued)
        for (unsigned s = 0; s < m_stops; ++s) {
            auto& q = m_queue[s];
            unsigned tried = 0;  // bit per link already served or blocked this hop
            for (auto it = q.begin(); it != q.end() && tried != (1u << m_links) - 1;) {
                unsigned l = link_of(it->target);
                if (tried >> l & 1) {
                    ++it;
                    continue;
                }
                tried |= 1u << l;
                Slot& slot = at(l, s);
                if (slot.full) {
                    ++m_blocked;
                    ++it;
                    continue;
                }
                slot.full = true;
                slot.m = *it;
                it = q.erase(it);
                --m_queued;
                ++m_in_flight;
                ++m_injected;
            }
        }
}

void LatencyRing::register_stats(sim::StatGroup& g) const {
    g.add("ring_sent", m_sent, "congestion messages produced by destinations", "messages");
    g.add("ring_dropped", m_dropped, "congestion messages dropped at a full grid buffer", "messages");
    g.add("ring_injected", m_injected, "congestion messages put on the ring", "messages");
    g.add("ring_delivered", m_delivered, "congestion messages that reached their source grid", "messages");
    g.add("ring_blocked", m_blocked, "hop slots a queued message waited for ring traffic", "slots");
    g.add("ring_latency", m_latency, "production to delivery on the ring", "cycles");
}

}  // namespace stacksim::noc
