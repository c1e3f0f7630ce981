// SPDX-License-Identifier: Apache-2.0
// The DLL latency-propagation ring: a bufferless multi-link ring between the interposer grids.
#pragma once
#include <cstdint>
#include <deque>
#include <vector>

#include "sim/stats.h"

namespace stacksim::noc {

/// A 9-bit congestion message: the grid it reports to, a per-hop latency and the layer measured.
struct CongestionMessage {
    uint8_t target = 0;   ///< source grid of the measured packet (where the message goes)
    uint8_t latency = 0;  ///< mean cycles per hop, saturated (4 bits)
    uint8_t layer = 0;    ///< 0 upper, 1 interposer
    uint64_t created = 0; ///< cycle the destination produced it (for the ring's latency stat)
};

/// `stops` grids on a unidirectional ring of `links` parallel links. A message for grid g rides
/// link g >> (bits(stops) - bits(links)), i.e. the top bits of the target (dropped on entry, so a
/// link carries 7 bits for 16 grids and 4 links). Bufferless: each link has one register per
/// stop and moves every message one stop every `hop_cycles` cycles (on cycles that are multiples
/// of hop_cycles); a message leaves at its target. Each stop queues up to `buffer` messages from
/// its grid's destinations (further ones are dropped) and, each hop, injects the oldest queued
/// message of each link only when that link's register at the stop is empty: ring traffic has
/// priority.
class LatencyRing {
public:
    LatencyRing(unsigned stops, unsigned links, unsigned hop_cycles, unsigned buffer);

    /// A destination in grid `at` reports `m`. Delivered at once when m.target == at; dropped
    /// (returns false) when the stop's buffer is full.
    bool send(unsigned at, const CongestionMessage& m);
    /// Moves the ring if `cycle` is a hop boundary; appends messages reaching their targets to `out`.
    void tick(uint64_t cycle, std::vector<CongestionMessage>& out);
    /// Messages queued or on the ring.
    bool busy() const { return m_in_flight != 0 || m_queued != 0; }
    /// The link a message for grid `target` rides.
    unsigned link_of(unsigned target) const { return target >> m_shift; }
    /// Messages delivered at once because source and destination share a grid.
    const std::vector<CongestionMessage>& local() const { return m_local; }
    void clear_local() { m_local.clear(); }

    unsigned stops() const { return m_stops; }
    unsigned links() const { return m_links; }
    uint64_t sent() const { return m_sent.value(); }
    uint64_t dropped() const { return m_dropped.value(); }
    uint64_t delivered() const { return m_delivered.value(); }
    uint64_t blocked() const { return m_blocked.value(); }
    const sim::Average& latency() const { return m_latency; }
    /// Registers the ring's counters under `group`.
    void register_stats(sim::StatGroup& group) const;

private:
    struct Slot {
        bool full = false;
        CongestionMessage m;
    };
    /// Register of `link` at `stop` after `m_step` moves (the array rotates, messages stay put).
    Slot& at(unsigned link, unsigned stop) { return m_slots[link * m_stops + (stop + m_stops - m_step) % m_stops]; }

    unsigned m_stops, m_links, m_hop, m_buffer, m_shift = 0;
    std::vector<Slot> m_slots;
    std::vector<std::deque<CongestionMessage>> m_queue;  ///< per stop
    std::vector<CongestionMessage> m_local;
    unsigned m_step = 0;
    uint64_t m_in_flight = 0, m_queued = 0, m_last_move = ~uint64_t{0};
    sim::Counter m_sent, m_dropped, m_injected, m_delivered, m_blocked;
    sim::Average m_latency;
};

}  // namespace stacksim::noc
