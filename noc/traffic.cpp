// SPDX-License-Identifier: Apache-2.0
// Synthetic traffic patterns and the geometric-gap Bernoulli source.
#include "noc/traffic.h"

#include <cmath>

#include <fmt/format.h>

#include "sim/error.h"

namespace stacksim::noc {

namespace {
bool power_of_two(unsigned n) { return n && (n & (n - 1)) == 0; }
}  // namespace

const std::vector<std::pair<std::string, std::string>>& traffic_patterns() {
    static const std::vector<std::pair<std::string, std::string>> p = {
        {"uniform", "each packet to a uniformly random other node"},
        {"transpose", "(x, y) -> (y, x); square meshes"},
        {"bitcomp", "bit complement of the node id; power-of-two node count"},
        {"shuffle", "node id rotated left by one bit; power-of-two node count"},
        {"tornado", "(x, y) -> (x + ceil(W/2) - 1 mod W, y + ceil(H/2) - 1 mod H)"},
        {"randperm", "a random permutation drawn from the seed"},
        {"hotspot", "hotspot_fraction of packets to hotspot_node, the rest uniform"},
    };
    return p;
}

void TrafficConfig::validate(unsigned width, unsigned height, unsigned memory_controllers) const {
    auto fail = [](const char* key, const std::string& m) { throw sim::ConfigError(std::string(key) + ": " + m); };
    unsigned n = width * height;
    bool known = false;
    for (auto& [name, d] : traffic_patterns()) known |= name == pattern;
    if (!known) {
        std::string names;
        for (auto& [name, d] : traffic_patterns()) names += (names.empty() ? "" : ", ") + name;
        fail("pattern", fmt::format("unknown pattern '{}' (known: {})", pattern, names));
    }
    if (pattern == "transpose" && width != height) fail("pattern", "transpose needs a square mesh");
    if ((pattern == "bitcomp" || pattern == "shuffle") && !power_of_two(n))
        fail("pattern", fmt::format("{} needs a power-of-two node count (have {})", pattern, n));
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

TrafficPattern::TrafficPattern(const TrafficConfig& cfg, unsigned width, unsigned height)
    : m_w(width), m_h(height), m_n(width * height), m_hot_fraction(cfg.hotspot_fraction) {
    const std::string& p = cfg.pattern;
    m_kind = p == "transpose"  ? Kind::Transpose
             : p == "bitcomp"  ? Kind::BitComplement
             : p == "shuffle"  ? Kind::Shuffle
             : p == "tornado"  ? Kind::Tornado
             : p == "randperm" ? Kind::Permutation
             : p == "hotspot"  ? Kind::Hotspot
                               : Kind::Uniform;
    while ((1u << m_bits) < m_n) ++m_bits;
    m_hotspot = cfg.hotspot_node >= 0 ? static_cast<unsigned>(cfg.hotspot_node) : (m_h / 2) * m_w + m_w / 2;
    if (m_kind == Kind::Permutation) {
        SplitMix64 rng(cfg.seed ^ 0x5bd1e995a1b2c3d4ULL);
        m_perm.resize(m_n);
        for (unsigned i = 0; i < m_n; ++i) m_perm[i] = i;
        for (unsigned i = m_n; i > 1; --i) std::swap(m_perm[i - 1], m_perm[rng.below(i)]);
    }
}

unsigned TrafficPattern::destination(unsigned src, SplitMix64& rng) const {
    unsigned x = src % m_w, y = src / m_w;
    switch (m_kind) {
    case Kind::Transpose: return x * m_w + y;
    case Kind::BitComplement: return ~src & (m_n - 1);
    case Kind::Shuffle: return m_bits ? ((src << 1) | (src >> (m_bits - 1))) & (m_n - 1) : src;
    case Kind::Tornado: return ((y + (m_h + 1) / 2 - 1) % m_h) * m_w + (x + (m_w + 1) / 2 - 1) % m_w;
    case Kind::Permutation: return m_perm[src];
    case Kind::Hotspot:
        if (rng.uniform() < m_hot_fraction) return m_hotspot;
        [[fallthrough]];
    case Kind::Uniform:
        if (m_n == 1) return src;
        {
            unsigned d = rng.below(m_n - 1);
            return d >= src ? d + 1 : d;
        }
    }
    return src;
}

SyntheticSource::SyntheticSource(const TrafficConfig& cfg, unsigned width, unsigned height,
                                 unsigned memory_controllers)
    : m_cfg(cfg), m_pattern(cfg, width, height), m_rng(cfg.seed), m_cores(width * height), m_mcs(memory_controllers),
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
            p.dst = m_pattern.destination(node, m_rng);
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
        std::vector<std::string> names;
        for (auto& [name, d] : traffic_patterns()) names.push_back(name);
        p.add("pattern", &C::pattern, "", "destination pattern (stacksim list)").one_of(names);
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
