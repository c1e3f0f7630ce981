// SPDX-License-Identifier: Apache-2.0
// What the layer policies share: decision counters and per-layer latency FIFOs.
#pragma once
#include <deque>

#include "noc/layer_policy.h"

namespace stacksim::noc {

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
        return m_fifo[layer].empty() ? 0.0
                                     : static_cast<double>(m_sum[layer]) / static_cast<double>(m_fifo[layer].size());
    }

private:
    unsigned m_entries;
    std::deque<unsigned> m_fifo[2];
    unsigned m_sum[2] = {0, 0};
};

/// Counts the decisions of a layer policy.
class LayerPolicyBase : public LayerPolicy {
public:
    explicit LayerPolicyBase(const LayerPolicyEnv& env) : m_env(env) {}
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

}  // namespace stacksim::noc
