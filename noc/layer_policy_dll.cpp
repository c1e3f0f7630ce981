// SPDX-License-Identifier: Apache-2.0
// DLL layer selection: per-hop latencies reported to the source grid over the latency ring (thesis ch.5).
#include "noc/layer_policy_dll.h"

#include "noc/latency_ring.h"
#include "noc/layer_policy_base.h"
#include "noc/topology.h"

namespace stacksim::noc {

namespace {

/// Parameters of dll ([noc.dll]).
struct DllParams {
    // 3 cycles/hop: the best of a sweep of 1..8 in this router's units (a hop costs 1 cycle at
    // zero load), as the thesis chose its 8 by experiment in BookSim's (docs/validation.md).
    double latency_threshold = 3.0;
    double interposer_limit = 8.0;
    uint32_t fifo_entries = 5;
    uint32_t saturate = 15;
    uint32_t ring_links = 4;
    uint32_t ring_hop_cycles = 2;
    uint32_t ring_buffer = 4;
    static const sim::Params<DllParams>& params() {
        using C = DllParams;
        static const auto p = [] {
            sim::Params<C> p;
            p.add("latency_threshold", &C::latency_threshold, "cycles/hop",
                  "divert when the upper layer's mean per-hop latency exceeds the interposer's by this")
                .range(0.0, 1e6);
            p.add("interposer_limit", &C::interposer_limit, "cycles/hop",
                  "... and the interposer's mean is below this")
                .range(0.001, 1e6);
            p.add("fifo_entries", &C::fifo_entries, "latencies", "recent latencies kept per layer and grid").range(1, 64);
            p.add("saturate", &C::saturate, "cycles/hop", "the per-hop latency field saturates here (4 bits: 15)")
                .range(1, 255);
            p.add("ring_links", &C::ring_links, "links", "parallel ring links (the target grid's top bits pick one)")
                .range(1, 16)
                .power_of_two();
            p.add("ring_hop_cycles", &C::ring_hop_cycles, "cycles", "cycles per ring hop").range(1, 16);
            p.add("ring_buffer", &C::ring_buffer, "messages",
                  "congestion messages queued per grid for the ring; more are dropped")
                .range(1, 1024);
            return p;
        }();
        return p;
    }
};

/// Destinations report each packet's per-hop latency to the packet's source grid over the
/// latency ring; each source grid keeps the recent latencies of its own packets per layer and
/// diverts when the upper layer's mean exceeds the interposer's by the threshold while the
/// interposer's stays under its limit.
class Dll final : public LayerPolicyBase {
public:
    Dll(const DllParams& p, const LayerPolicyEnv& env)
        : LayerPolicyBase(env), m_p(p),
          m_ring(env.topology.grids(), p.ring_links, p.ring_hop_cycles, p.ring_buffer),
          m_fifos(env.topology.grids(), LatencyFifos(p.fifo_entries)) {}
    bool divert(unsigned src, unsigned, uint64_t) override {
        const LatencyFifos& f = m_fifos[m_env.topology.grid(src)];
        return decide(f.mean(0) - f.mean(1) > m_p.latency_threshold && f.mean(1) < m_p.interposer_limit);
    }
    void received(const Flit& head, uint64_t cycle) override {
        const Topology& t = m_env.topology;
        CongestionMessage m;
        m.target = static_cast<uint8_t>(t.grid(head.src));
        m.latency = static_cast<uint8_t>(recorded_hop_latency(head, m_p.saturate));
        m.layer = head.lower ? 1 : 0;
        m.created = cycle;
        m_ring.send(t.grid(head.dst), m);
        for (const auto& l : m_ring.local()) m_fifos[l.target].push(l.layer, l.latency);
        m_ring.clear_local();
    }
    bool busy() const override { return m_ring.busy(); }
    void tick(uint64_t cycle) override {
        m_out.clear();
        m_ring.tick(cycle, m_out);
        for (const auto& m : m_out) m_fifos[m.target].push(m.layer, m.latency);
    }
    void register_stats(sim::StatGroup& g) const override {
        LayerPolicyBase::register_stats(g);
        m_ring.register_stats(g);
    }
    const LatencyRing& ring() const { return m_ring; }

private:
    DllParams m_p;
    LatencyRing m_ring;
    std::vector<LatencyFifos> m_fifos;
    std::vector<CongestionMessage> m_out;
};

const bool registered = layer_policies().add_with<DllParams>(
    "dll", "per-hop latency reported to the source grid over the latency ring (thesis ch.5)",
    [](const DllParams& p, const LayerPolicyEnv& e) { return std::make_unique<Dll>(p, e); });

}  // namespace

const LatencyRing* dll_ring(const LayerPolicy& policy) {
    const auto* dll = dynamic_cast<const Dll*>(&policy);
    return dll ? &dll->ring() : nullptr;
}

}  // namespace stacksim::noc
