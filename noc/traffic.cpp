// SPDX-License-Identifier: Apache-2.0
// The geometric-gap Bernoulli source of synthetic traffic (patterns: noc/traffic_*.cpp).
#include "noc/traffic.h"

#include <cmath>

#include <fmt/format.h>

#include "sim/error.h"

namespace stacksim::noc {

void TrafficConfig::validate(unsigned width, unsigned height, unsigned memory_controllers) const {
    auto fail = [](const char* key, const std::string& m) { throw sim::ConfigError(std::string(key) + ": " + m); };
    unsigned n = width * height;
    if (!traffic_patterns().contains(pattern)) {
        std::string names;
        for (auto& name : traffic_patterns().names()) names += (names.empty() ? "" : ", ") + name;
        fail("pattern", fmt::format("unknown pattern '{}' (known: {})", pattern, names));
    }
    make_traffic_pattern(*this, width, height);  // a pattern that cannot serve the grid throws here
    if (packet_flits < 1 || packet_flits > 1024) fail("packet_flits", fmt::format("{} is out of range 1..1024", packet_flits));
    if (data_flits > 1024) fail("data_flits", fmt::format("{} is out of range 0..1024", data_flits));
    if (!(data_fraction >= 0.0 && data_fraction <= 1.0)) fail("data_fraction", "must lie in 0..1");
    if (!(memory_fraction >= 0.0 && memory_fraction <= 1.0)) fail("memory_fraction", "must lie in 0..1");
    if (memory_fraction > 0.0 && memory_controllers == 0)
        fail("memory_fraction", "needs memory controllers in the network (noc.memory_controllers)");
    if (!(rate >= 0.0) || rate > mean_flits())
        fail("rate", fmt::format("{} is out of range 0..{} flits/node/cycle (one packet per cycle)", rate, mean_flits()));
    if (!(reply_fraction >= 0.0 && reply_fraction <= 1.0)) fail("reply_fraction", "must lie in 0..1");
    if (!(hotspot_fraction >= 0.0 && hotspot_fraction <= 1.0)) fail("hotspot_fraction", "must lie in 0..1");
    if (hotspot_node < -1 || hotspot_node >= static_cast<int64_t>(n))
        fail("hotspot_node", fmt::format("{} is not a node (0..{}) or -1", hotspot_node, n - 1));
}

SyntheticSource::SyntheticSource(const TrafficConfig& cfg, unsigned width, unsigned height,
                                 unsigned memory_controllers)
    : m_cfg(cfg), m_pattern(make_traffic_pattern(cfg, width, height)), m_rng(cfg.seed), m_cores(width * height), m_mcs(memory_controllers),
      m_p(cfg.rate / cfg.mean_flits()), m_log_q(m_p < 1.0 ? std::log1p(-m_p) : 0.0) {
    if (m_p <= 0.0) return;
    std::vector<Due> init;
    for (unsigned n = 0; n < width * height; ++n) init.emplace_back(gap() - 1, n);
    m_heap = decltype(m_heap)(std::greater<Due>(), std::move(init));
}

uint64_t SyntheticSource::gap() {
    if (m_p >= 1.0) return 1;
    double u = m_rng.uniform();
    double g = std::floor(std::log1p(-u) / m_log_q);
    return g > 1e15 ? uint64_t{1} << 50 : static_cast<uint64_t>(g) + 1;
}

void SyntheticSource::generate(uint64_t cycle, Network& net) {
    while (!m_heap.empty() && m_heap.top().first <= cycle) {
        auto [at, node] = m_heap.top();
        m_heap.pop();
        Packet p;
        p.id = m_next_id++;
        p.inject_cycle = at;
        p.src = node;
        if (m_cfg.memory_fraction > 0.0 && m_rng.uniform() < m_cfg.memory_fraction)
            p.dst = m_cores + m_rng.below(m_mcs);
        else
            p.dst = m_pattern->destination(node, m_rng);
        p.flits = m_cfg.packet_flits;
        if (m_cfg.data_fraction > 0.0 && m_rng.uniform() < m_cfg.data_fraction && m_cfg.data_flits)
            p.flits = m_cfg.data_flits;
        p.mclass = m_rng.uniform() < m_cfg.reply_fraction ? MessageClass::Reply : MessageClass::Request;
        p.measured = at >= m_begin && at < m_end;
        if (p.measured) m_window_flits += p.flits;
        net.enqueue(p);
        m_heap.emplace(at + gap(), node);
    }
}

const sim::Params<TrafficConfig>& TrafficConfig::params() {
    using C = TrafficConfig;
    static const auto p = [] {
        sim::Params<C> p;
        p.add("pattern", &C::pattern, "", "destination pattern (stacksim list)").one_of(traffic_patterns());
        p.add("rate", &C::rate, "flits/node/cycle", "offered load (Bernoulli injection)").range(0.0, 1024.0);
        p.add("packet_flits", &C::packet_flits, "flits", "control packet size (every packet when data_fraction = 0)")
            .range(1, 1024);
        p.add("data_flits", &C::data_flits, "flits", "data packet size (0: packet_flits)").range(0, 1024);
        p.add("data_fraction", &C::data_fraction, "", "share of packets that are data packets").range(0.0, 1.0);
        p.add("memory_fraction", &C::memory_fraction, "", "share of packets sent to a random memory-controller channel")
            .range(0.0, 1.0);
        p.add("seed", &C::seed, "", "seed of the traffic generator");
        p.add("reply_fraction", &C::reply_fraction, "", "share of packets in the reply message class").range(0.0, 1.0);
        p.add("hotspot_fraction", &C::hotspot_fraction, "", "hotspot: share of packets sent to hotspot_node")
            .range(0.0, 1.0);
        p.add("hotspot_node", &C::hotspot_node, "", "hotspot target; -1: the node nearest the centre")
            .range(-1, 65535);
        return p;
    }();
    return p;
}

}  // namespace stacksim::noc
