// SPDX-License-Identifier: Apache-2.0
// DestDetect layer selection: a node places its packets by the latencies of those it receives.
#include "noc/layer_policy_base.h"
#include "noc/topology.h"

namespace stacksim::noc {

namespace {

/// Parameters of destdetect ([noc.destdetect]).
struct DestDetectParams {
    double latency_threshold = 8.0;
    uint32_t fifo_entries = 5;
    uint32_t saturate = 15;
    static const sim::Params<DestDetectParams>& params() {
        using C = DestDetectParams;
        static const auto p = [] {
            sim::Params<C> p;
            p.add("latency_threshold", &C::latency_threshold, "cycles/hop",
                  "divert when the upper layer's mean per-hop latency exceeds the interposer's by this")
                .range(0.0, 1e6);
            p.add("fifo_entries", &C::fifo_entries, "latencies", "recent latencies kept per layer").range(1, 64);
            p.add("saturate", &C::saturate, "cycles/hop", "a recorded per-hop latency saturates here").range(1, 255);
            return p;
        }();
        return p;
    }
};

/// Every node keeps the per-hop latencies of the packets it receives, per layer, and uses them
/// for the packets it sends (the paths differ: that is its weakness).
class DestDetect final : public LayerPolicyBase {
public:
    DestDetect(const DestDetectParams& p, const LayerPolicyEnv& env)
        : LayerPolicyBase(env), m_p(p), m_fifos(env.topology.terminals(), LatencyFifos(p.fifo_entries)) {}
    bool divert(unsigned src, unsigned, uint64_t) override {
        const LatencyFifos& f = m_fifos[src];
        return decide(f.mean(0) - f.mean(1) > m_p.latency_threshold);
    }
    void received(const Flit& head, uint64_t) override {
        m_fifos[head.dst].push(head.lower ? 1 : 0, recorded_hop_latency(head, m_p.saturate));
    }

private:
    DestDetectParams m_p;
    std::vector<LatencyFifos> m_fifos;
};

const bool registered = layer_policies().add_with<DestDetectParams>(
    "destdetect", "each node uses the latency of packets it receives to place the packets it sends",
    [](const DestDetectParams& p, const LayerPolicyEnv& e) { return std::make_unique<DestDetect>(p, e); });

}  // namespace

}  // namespace stacksim::noc
