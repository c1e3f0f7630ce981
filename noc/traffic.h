// SPDX-License-Identifier: Apache-2.0
// Synthetic traffic: settings and seeded Bernoulli packet injection over a registered pattern.
#pragma once
#include "sim/param.h"
#include <cstdint>
#include <memory>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "noc/network.h"
#include "noc/split_mix.h"
#include "noc/traffic_pattern.h"

namespace stacksim::noc {

/// Traffic settings ([traffic] section, generation part).
struct TrafficConfig {
    std::string pattern = "uniform";  ///< a traffic_patterns() name (noc/traffic_pattern.h)
    double rate = 0.1;                ///< offered load, flits/node/cycle (Bernoulli)
    unsigned packet_flits = 4;        ///< control packet size (every packet when data_fraction = 0), flits
    unsigned data_flits = 0;          ///< data packet size, flits (0: same as packet_flits)
    double data_fraction = 0.0;       ///< share of packets that are data packets
    double memory_fraction = 0.0;     ///< share of packets sent to a uniformly random memory controller
    uint64_t seed = 1;
    double reply_fraction = 0.5;      ///< share of packets in the reply message class
    double hotspot_fraction = 0.2;    ///< hotspot: share of packets sent to hotspot_node
    int64_t hotspot_node = -1;        ///< hotspot target; -1: the node nearest the centre
    /// The declared parameters ([traffic], with MeasureConfig's).
    static const sim::Params<TrafficConfig>& params();
    /// Throws sim::ConfigError("key: message") (`width` x `height` cores, `memory_controllers` after them).
    void validate(unsigned width, unsigned height, unsigned memory_controllers = 0) const;
    /// Mean packet size, flits.
    double mean_flits() const {
        return (1.0 - data_fraction) * packet_flits + data_fraction * (data_flits ? data_flits : packet_flits);
    }
};

/// Bernoulli packet injection at every core: the gap to a core's next packet is drawn from
/// the geometric distribution, so cost follows the packets, not the cycles. A packet goes to a
/// uniformly random memory-controller channel (terminals width*height and up) with probability
/// memory_fraction, else to the pattern's destination. Packets created at cycles in
/// [measure_begin, measure_end) are flagged measured.
class SyntheticSource : public PacketSource {
public:
    /// `memory_terminals`: controller channels numbered after the width x height cores.
    SyntheticSource(const TrafficConfig& cfg, unsigned width, unsigned height, unsigned memory_terminals = 0);
    void set_window(uint64_t begin, uint64_t end) { m_begin = begin; m_end = end; }
    uint64_t next_cycle() const override { return m_heap.empty() ? ~uint64_t{0} : m_heap.top().first; }
    void generate(uint64_t cycle, Network& net) override;
    /// Flits created inside the measurement window.
    uint64_t window_flits() const { return m_window_flits; }

private:
    uint64_t gap();
    using Due = std::pair<uint64_t, unsigned>;  ///< (cycle, node)
    TrafficConfig m_cfg;
    std::unique_ptr<TrafficPattern> m_pattern;
    SplitMix64 m_rng;
    unsigned m_cores, m_mcs;
    double m_p;         ///< packet probability per node per cycle
    double m_log_q;     ///< log(1 - m_p)
    std::priority_queue<Due, std::vector<Due>, std::greater<Due>> m_heap;
    uint64_t m_next_id = 0, m_begin = 0, m_end = 0, m_window_flits = 0;
};

}  // namespace stacksim::noc
