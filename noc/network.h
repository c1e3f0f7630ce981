// SPDX-License-Identifier: Apache-2.0
// A network of VC routers on a topology, with injection queues and ejection: one sim::Clocked component.
#pragma once
#include <cstdint>
#include <functional>
#include <deque>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "noc/flit.h"
#include "noc/layer_policy.h"
#include "noc/network_config.h"
#include "noc/router.h"
#include "noc/topology.h"
#include "sim/clocked.h"
#include "sim/stats.h"

namespace stacksim::sim {
class ClockDomain;
}

namespace stacksim::noc {

class Network;

/// Creates packets over time (synthetic traffic). Polled by the Network's tick.
class PacketSource {
public:
    virtual ~PacketSource() = default;
    /// Earliest cycle at which a packet is due, or ~0 for none.
    virtual uint64_t next_cycle() const = 0;
    /// Enqueues every packet due at or before `cycle` with Network::enqueue().
    virtual void generate(uint64_t cycle, Network& net) = 0;
};

/// Network statistics. "measured" ones cover only packets flagged measured.
struct NetworkStats {
    sim::Counter packets_created, packets_injected, flits_injected, packets_ejected, flits_ejected;
    sim::Counter flit_hops;           ///< router-to-router link traversals
    sim::Counter upper_flit_hops, lower_flit_hops, vertical_flit_hops;  ///< by link kind
    sim::Counter edge_flit_hops;      ///< lower-layer traversals into an edge-column router
    sim::Counter memory_packets;      ///< packets to or from a memory controller
    sim::Counter diverted_packets;    ///< coherence packets the layer policy sent over the interposer
    sim::Average upper_packet_latency, lower_packet_latency;  ///< measured packets by layer taken, cycles
    sim::Counter window_flits_ejected;  ///< flits ejected inside the measurement window
    sim::Average packet_latency;      ///< creation -> tail ejected, cycles
    sim::Average network_latency;     ///< head injected -> tail ejected, cycles
    sim::Average hops;                ///< router-to-router links per packet
    sim::Average measured_packet_latency, measured_network_latency, measured_hops;
    uint64_t measured_outstanding = 0;  ///< measured packets created but not yet ejected
};

/// The network. Ticks only routers holding flits and terminals with queued packets; returns false
/// (sleeps) when nothing is in flight, waking at the source's next packet.
///
/// Per-packet timing at zero load (P stages, L link cycles, H hops, F flits): the head leaves
/// the injection queue at its creation cycle, is in the first router's buffer one cycle later,
/// each router-to-router hop takes P + L, and the destination router forwards it to the ejection
/// port in P + L too; so latency = (H + 1)(P + L) + 1 + (F - 1).
class Network : public sim::Clocked {
public:
    /// `domain` may be null: then the owner calls tick() itself (see run_direct()).
    explicit Network(const NetworkConfig& cfg, sim::ClockDomain* domain = nullptr);

    void set_source(PacketSource* source);
    /// Flits ejected at cycles in [begin, end) are counted in window_flits_ejected.
    void set_window(uint64_t begin, uint64_t end) { m_win_begin = begin; m_win_end = end; }
    /// Appends `p` to the injection queue of terminal p.src (wakes the network).
    void enqueue(const Packet& p);
    /// Called with the tail flit (packet, dst terminal, vc) and the cycle when a packet is ejected
    /// (trace dependencies, handing packets on to their receivers).
    void set_tail_hook(std::function<void(const Flit&, uint64_t)> hook) { m_on_tail = std::move(hook); }
    /// With eject_credits: the terminal consumed `flits` flits that arrived on `vc`.
    void consume(unsigned terminal, unsigned vc, unsigned flits);

    bool tick(uint64_t cycle) override;
    /// The cycle the network asked to be woken at when tick() last returned false (~0: none).
    uint64_t next_wake() const { return m_next_wake; }

    const NetworkConfig& config() const { return m_cfg; }
    const NetworkStats& stats() const { return m_stats; }
    const Router& router(unsigned id) const { return *m_routers[id]; }
    const Topology& topology() const { return *m_topology; }
    /// The layer policy (stacked topologies), else null.
    const LayerPolicy* policy() const { return m_policy.get(); }
    unsigned nodes() const { return m_cfg.nodes(); }
    /// Packets waiting in injection queues (not yet fully injected).
    uint64_t queued_packets() const;
    /// Registers the stats under `group`.
    void register_stats(sim::StatGroup& group) const;

private:
    enum class EventKind : uint8_t { Flit, Credit, NiCredit, Eject };
    struct Event {
        EventKind kind;
        uint8_t port;
        uint8_t vc;
        uint32_t node;  ///< router (Flit, Credit) or terminal (NiCredit, Eject)
        Flit flit;
    };
    struct Ni {
        std::deque<Packet> queue;
        std::vector<uint32_t> credits;  ///< per VC of the router's local input port
        int cur_vc = -1;
        uint32_t sent = 0;
        uint64_t network_cycle = 0;
        unsigned rr = 0;
        bool active = false;
        bool lower = false;  ///< layer of the packet being injected
    };
    void schedule(uint64_t at, const Event& e);
    void deliver(uint64_t cycle);
    bool inject(Ni& ni, unsigned node, uint64_t cycle);
    void eject(const Flit& f, uint64_t cycle);
    void handle(const Router::Departure& d, unsigned node, uint64_t cycle);

    NetworkConfig m_cfg;
    sim::ClockDomain* m_domain;
    std::unique_ptr<Topology> m_topology;
    std::unique_ptr<LayerPolicy> m_policy;
    std::vector<std::unique_ptr<Router>> m_routers;
    std::vector<Ni> m_nis;
    std::vector<unsigned> m_active_routers, m_active_nis, m_keep;
    std::vector<uint8_t> m_router_active;
    std::vector<std::vector<Event>> m_wheel;
    uint64_t m_wheel_mask = 0;
    uint64_t m_pending = 0;  ///< events in the wheel
    std::vector<Router::Departure> m_departures;
    PacketSource* m_source = nullptr;
    std::function<void(const Flit&, uint64_t)> m_on_tail;
    NetworkStats m_stats;
    uint64_t m_win_begin = 0, m_win_end = 0;
    uint64_t m_next_wake = ~uint64_t{0};
};

/// Drives `net` without SystemC exactly as a ClockDomain would (ticking while it asks to,
/// else jumping to its wake cycle) from `from` until cycle `until` (exclusive) or until
/// `stop()` (or `stop(cycle)`) returns true after a tick. Returns the next cycle to run.
template <typename Stop> uint64_t run_direct(Network& net, uint64_t from, uint64_t until, Stop stop) {
    uint64_t c = from;
    while (c < until) {
        bool again = net.tick(c);
        bool done = false;
        if constexpr (std::is_invocable_v<Stop, uint64_t>)
            done = stop(c);
        else
            done = stop();
        if (done) return c + 1;
        if (again) {
            ++c;
        } else {
            uint64_t w = net.next_wake();
            if (w == ~uint64_t{0}) return until;
            c = w > c ? w : c + 1;
        }
    }
    return c;
}

}  // namespace stacksim::noc
