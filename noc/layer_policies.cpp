// SPDX-License-Identifier: Apache-2.0
// Layer-selection policies of the 2.5D network: DOR, LocalBuf, DestDetect and DLL.
#include <fmt/format.h>

#include <deque>

#include "noc/latency_ring.h"
#include "noc/layer_policy.h"
#include "noc/router.h"
#include "noc/topology.h"
#include "sim/error.h"

namespace stacksim::noc {

void LayerPolicyConfig::validate() const {
    auto fail = [](const char* key, const std::string& m) { throw sim::ConfigError(std::string(key) + ": " + m); };
    if (!layer_policy_registry().contains(name)) {
        std::string known;
        for (auto& n : layer_policy_registry().names()) known += (known.empty() ? "" : ", ") + n;
        fail("layer_policy", fmt::format("unknown layer policy '{}' (known: {})", name, known));
    }
    if (!(local_buffer_threshold > 0.0 && local_buffer_threshold <= 1.0))
        fail("local_buffer_threshold", "must be in (0, 1]");
    if (!(latency_threshold >= 0.0)) fail("latency_threshold", "must be >= 0");
    if (!(interposer_limit > 0.0)) fail("interposer_limit", "must be positive");
    if (fifo_entries < 1 || fifo_entries > 64) fail("fifo_entries", fmt::format("{} is out of range 1..64", fifo_entries));
    if (saturate < 1 || saturate > 255) fail("saturate", fmt::format("{} is out of range 1..255", saturate));
    if (ring_links < 1 || ring_links > 16 || (ring_links & (ring_links - 1)))
        fail("ring_links", fmt::format("{} must be a power of two in 1..16", ring_links));
    if (ring_hop_cycles < 1 || ring_hop_cycles > 16) fail("ring_hop_cycles", fmt::format("{} is out of range 1..16", ring_hop_cycles));
    if (ring_buffer < 1 || ring_buffer > 1024) fail("ring_buffer", fmt::format("{} is out of range 1..1024", ring_buffer));
}

namespace {

/// The last N latencies seen on each layer; the mean of an empty FIFO is 0 (no congestion seen).
class LatencyFifos {
public:
    explicit LatencyFifos(unsigned entries) : m_entries(entries) {}
    void push(unsigned layer, unsigned latency) {
        auto& f = m_fifo[layer];
        f.push_back(latency);
        m_sum[layer] += latency;
        if (f.size() > m_entries) {
            m_sum[layer] -= f.front();
            f.pop_front();
        }
    }
    double mean(unsigned layer) const {
        return m_fifo[layer].empty() ? 0.0 : static_cast<double>(m_sum[layer]) / static_cast<double>(m_fifo[layer].size());
    }

private:
    unsigned m_entries;
    std::deque<unsigned> m_fifo[2];
    unsigned m_sum[2] = {0, 0};
};

class PolicyBase : public LayerPolicy {
public:
    explicit PolicyBase(const LayerPolicyEnv& env) : m_env(env) {}
    void register_stats(sim::StatGroup& g) const override {
        g.add("decisions", m_decisions, "coherence packets whose layer the policy chose", "packets");
        g.add("diverted", m_diverted, "coherence packets sent over the interposer", "packets");
    }

protected:
    bool decide(bool lower) {
        ++m_decisions;
        if (lower) ++m_diverted;
        return lower;
    }
    LayerPolicyEnv m_env;
    sim::Counter m_decisions, m_diverted;
};

/// Dimension-order baseline: coherence on the upper layer, memory traffic on the interposer.
class DorPolicy : public PolicyBase {
public:
    using PolicyBase::PolicyBase;
    bool divert(unsigned, unsigned, uint64_t) override { return decide(false); }
};

/// LocalBuf: a router with an input port whose buffers are more than the threshold full is congested;
/// divert when more than `local_congested_nodes` upper routers of the source's grid are
/// congested and the grid's interposer router is not.
class LocalBufPolicy : public PolicyBase {
public:
    using PolicyBase::PolicyBase;
    bool divert(unsigned src, unsigned, uint64_t) override {
        const Topology& t = m_env.topology;
        unsigned g = t.grid(src), congested = 0;
        for (unsigned r : t.grid_upper_routers(g)) congested += is_congested(r);
        return decide(congested > m_env.cfg.local_congested_nodes && !is_congested(t.grid_lower_router(g)));
    }

private:
    bool is_congested(unsigned r) const {
        return m_env.routers[r]->max_port_occupancy() > m_env.cfg.local_buffer_threshold;
    }
};

/// DestDetect: every node keeps the per-hop latencies of the packets it receives, per layer,
/// and uses them for the packets it sends (the paths differ: that is its weakness).
class DestDetectPolicy : public PolicyBase {
public:
    explicit DestDetectPolicy(const LayerPolicyEnv& env)
        : PolicyBase(env), m_fifos(env.topology.terminals(), LatencyFifos(env.cfg.fifo_entries)) {}
    bool divert(unsigned src, unsigned, uint64_t) override {
        const LatencyFifos& f = m_fifos[src];
        return decide(f.mean(0) - f.mean(1) > m_env.cfg.latency_threshold);
    }
    void received(const Flit& head, uint64_t) override {
        m_fifos[head.dst].push(head.lower ? 1 : 0, recorded_hop_latency(head, m_env.cfg.saturate));
    }

private:
    std::vector<LatencyFifos> m_fifos;
};

/// DLL: destinations report each packet's per-hop latency to the packet's source grid over the
/// latency ring; each source grid keeps the recent latencies of its own packets per layer and
/// diverts when the upper layer's mean exceeds the interposer's by the threshold while the
/// interposer's stays under its limit.
class DllPolicy : public PolicyBase {
public:
    explicit DllPolicy(const LayerPolicyEnv& env)
        : PolicyBase(env),
          m_ring(env.topology.grids(), env.cfg.ring_links, env.cfg.ring_hop_cycles, env.cfg.ring_buffer),
          m_fifos(env.topology.grids(), LatencyFifos(env.cfg.fifo_entries)) {}
    bool divert(unsigned src, unsigned, uint64_t) override {
        const LatencyFifos& f = m_fifos[m_env.topology.grid(src)];
        return decide(f.mean(0) - f.mean(1) > m_env.cfg.latency_threshold && f.mean(1) < m_env.cfg.interposer_limit);
    }
    void received(const Flit& head, uint64_t cycle) override {
        const Topology& t = m_env.topology;
        CongestionMessage m;
        m.target = static_cast<uint8_t>(t.grid(head.src));
        m.latency = static_cast<uint8_t>(recorded_hop_latency(head, m_env.cfg.saturate));
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
    const LatencyRing* ring() const override { return &m_ring; }
    void register_stats(sim::StatGroup& g) const override {
        PolicyBase::register_stats(g);
        m_ring.register_stats(g);
    }

private:
    LatencyRing m_ring;
    std::vector<LatencyFifos> m_fifos;
    std::vector<CongestionMessage> m_out;
};

LayerPolicyRegistry make_registry() {
    LayerPolicyRegistry r("layer policy");
    r.add("dor", "coherence on the upper layer, memory traffic on the interposer",
          [](const LayerPolicyEnv& e) { return std::make_unique<DorPolicy>(e); });
    r.add("localbuf", "divert when more than one router of the grid has an input port over 60% full and the interposer node has none",
          [](const LayerPolicyEnv& e) { return std::make_unique<LocalBufPolicy>(e); });
    r.add("destdetect", "each node uses the latency of packets it receives to place the packets it sends",
          [](const LayerPolicyEnv& e) { return std::make_unique<DestDetectPolicy>(e); });
    r.add("dll", "per-hop latency reported to the source grid over the latency ring (thesis ch.5)",
          [](const LayerPolicyEnv& e) { return std::make_unique<DllPolicy>(e); });
    return r;
}

}  // namespace

const LayerPolicyRegistry& layer_policy_registry() {
    static const LayerPolicyRegistry r = make_registry();
    return r;
}

}  // namespace stacksim::noc
