// SPDX-License-Identifier: Apache-2.0
// Synthetic traffic: destination patterns and seeded Bernoulli packet injection.
#pragma once
#include "sim/param.h"
#include <cstdint>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "noc/network.h"

namespace stacksim::noc {

/// Deterministic 64-bit generator (SplitMix64).
class SplitMix64 {
public:
    explicit SplitMix64(uint64_t seed) : m_state(seed) {}
    uint64_t next() {
        uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    /// Uniform in [0, 1).
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    /// Uniform in [0, n).
    uint32_t below(uint32_t n) { return static_cast<uint32_t>((next() >> 32) * n >> 32); }

private:
    uint64_t m_state;
};

/// Traffic settings ([traffic] section, generation part).
struct TrafficConfig {
    std::string pattern = "uniform";  ///< one of traffic_patterns()
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

/// Names of the destination patterns with a one-line description each.
const std::vector<std::pair<std::string, std::string>>& traffic_patterns();

/// Maps a source node to a destination node.
class TrafficPattern {
public:
    TrafficPattern(const TrafficConfig& cfg, unsigned width, unsigned height);
    unsigned destination(unsigned src, SplitMix64& rng) const;

private:
    enum class Kind { Uniform, Transpose, BitComplement, Shuffle, Tornado, Permutation, Hotspot } m_kind;
    unsigned m_w, m_h, m_n, m_bits = 0, m_hotspot = 0;
    double m_hot_fraction;
    std::vector<unsigned> m_perm;
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
    TrafficPattern m_pattern;
    SplitMix64 m_rng;
    unsigned m_cores, m_mcs;
    double m_p;         ///< packet probability per node per cycle
    double m_log_q;     ///< log(1 - m_p)
    std::priority_queue<Due, std::vector<Due>, std::greater<Due>> m_heap;
    uint64_t m_next_id = 0, m_begin = 0, m_end = 0, m_window_flits = 0;
};

}  // namespace stacksim::noc
