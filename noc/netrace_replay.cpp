// SPDX-License-Identifier: Apache-2.0
// Replays a Netrace trace on a network, injecting each packet only after its dependencies.
#include "noc/netrace_replay.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <deque>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "noc/netrace_dependencies.h"
#include "noc/netrace_reader.h"
#include "sim/error.h"

namespace stacksim::noc {

namespace {

/// Feeds the network from the trace: reads ahead by cycle, holds packets whose dependencies
/// are still in the network, and releases them when the network reports their ejection.
class NetraceSource : public PacketSource {
public:
    NetraceSource(NetraceReader& reader, uint32_t flit_bytes, const Topology& topology, double speedup,
                  uint64_t max_cycles)
        : m_reader(reader), m_flit_bytes(flit_bytes), m_topology(topology), m_speedup(speedup),
          m_max_cycles(max_cycles) {
        advance();
    }

    uint64_t next_cycle() const override {
        if (!m_released.empty()) return m_now + 1;
        return m_have_next ? m_next.cycle : ~uint64_t{0};
    }

    void generate(uint64_t cycle, Network& net) override {
        m_now = cycle;
        while (m_have_next && m_next.cycle <= cycle) {
            // Ids name packets in dependency lists: one in use twice at once is a broken file.
            if (m_tracker.in_flight(m_next.id))
                throw sim::InputError(fmt::format("{}: packet record {}: packet id {} is used again while that packet "
                                                  "is still in flight (ids must be unique)",
                                                  m_reader.path(), m_reader.packets_read() - 1, m_next.id));
            m_tracker.add(m_next);
            m_info[m_next.id] = Info{m_next.cycle, endpoint(m_next.src, m_next.src_type),
                                     endpoint(m_next.dst, m_next.dst_type), m_next.type};
            if (m_tracker.ready(m_next.id))
                inject(m_next.id, cycle, net);
            else
                m_waiting.insert(m_next.id);
            advance();
        }
        for (uint32_t id : m_released) inject(id, cycle, net);
        m_released.clear();
    }

    /// A packet's tail left the network at `cycle`.
    void ejected(uint64_t id, uint64_t cycle) {
        ++m_delivered;
        m_last_eject = cycle;
        m_now = cycle;
        for (uint32_t d : m_tracker.ejected(static_cast<uint32_t>(id)))
            if (m_waiting.erase(d)) m_released.push_back(d);
    }

    uint64_t delivered() const { return m_delivered; }
    uint64_t last_eject() const { return m_last_eject; }
    uint64_t delayed() const { return m_delayed; }
    bool done() const { return !m_have_next && m_waiting.empty() && m_released.empty() && m_tracker.in_flight() == 0; }
    /// Throws sim::InputError when packets wait for packets that can never be delivered: every
    /// packet read and not yet ejected is waiting (none is in the network or being released),
    /// so no ejection will ever release one; later records cannot either. A packet that depends
    /// on itself, or a dependency cycle, ends here.
    void check_dependencies() const {
        if (m_waiting.empty() || !m_released.empty() || m_tracker.in_flight() != m_waiting.size()) return;
        uint32_t id = *std::min_element(m_waiting.begin(), m_waiting.end());
        throw sim::InputError(fmt::format("{}: {} packets wait for packets that can never be delivered (a dependency "
                                          "cycle or a packet depending on itself), e.g. packet {}",
                                          m_reader.path(), m_waiting.size(), id));
    }

private:
    struct Info {
        uint64_t cycle;
        uint32_t src, dst;
        uint8_t type;
    };
    /// Terminal of a trace node: its core, or for a memory controller node (type 3) when the
    /// network has controllers of its own, the controller nearest to that node.
    uint32_t endpoint(uint8_t node, uint8_t type) const {
        if (type == 3 && m_topology.memory_terminals() > 0)
            return m_topology.nearest_memory_controller(node) + m_next.id % m_topology.memory_channels();
        return node;
    }
    void inject(uint32_t id, uint64_t cycle, Network& net) {
        const Info& in = m_info.at(id);
        if (cycle > in.cycle) ++m_delayed;
        Packet p;
        p.id = id;
        p.inject_cycle = cycle;
        p.src = in.src;
        p.dst = in.dst;
        const uint32_t bytes = netrace_packet_bytes(in.type);
        p.flits = std::max<uint32_t>(1, (bytes + m_flit_bytes - 1) / m_flit_bytes);
        p.mclass = std::strstr(netrace_type_name(in.type), "Resp") ? MessageClass::Reply : MessageClass::Request;
        m_info.erase(id);
        net.enqueue(p);
    }

    /// Reads the next record; its cycle is scaled by the speedup.
    void advance() {
        m_have_next = m_reader.next(m_next);
        if (m_have_next && m_speedup != 1.0)
            m_next.cycle = static_cast<uint64_t>(static_cast<double>(m_next.cycle) / m_speedup);
        if (m_have_next && m_next.cycle >= m_max_cycles)
            throw sim::InputError(fmt::format("{}: packet {} is due at cycle {}, past the replay's limit of {} cycles",
                                              m_reader.path(), m_next.id, m_next.cycle, m_max_cycles));
    }

    NetraceReader& m_reader;
    uint32_t m_flit_bytes;
    const Topology& m_topology;
    double m_speedup;
    uint64_t m_max_cycles;
    NetracePacket m_next;
    bool m_have_next = false;
    DependencyTracker m_tracker;
    std::unordered_map<uint32_t, Info> m_info;
    std::unordered_set<uint32_t> m_waiting;
    std::vector<uint32_t> m_released;
    uint64_t m_now = 0, m_delivered = 0, m_last_eject = 0, m_delayed = 0;
};

}  // namespace

ReplayResult replay_netrace(const std::string& path, const NetworkConfig& ncfg, uint32_t flit_bytes,
                            uint64_t max_cycles, double speedup) {
    if (!(speedup >= 1.0 && speedup <= 1000.0)) throw sim::InputError(fmt::format("trace.speedup: {} is out of range 1..1000", speedup));
    const auto t0 = std::chrono::steady_clock::now();
    if (flit_bytes == 0) throw sim::InputError("flit_bytes must be positive");
    NetraceReader reader(path);
    const NetraceHeader& h = reader.header();
    if (h.num_nodes > ncfg.nodes())
        throw sim::InputError(fmt::format("{}: trace has {} nodes, the {}x{} network only {} cores", path,
                                          h.num_nodes, ncfg.width, ncfg.height, ncfg.nodes()));
    Network net(ncfg, nullptr);
    NetraceSource src(reader, flit_bytes, net.topology(), speedup, max_cycles);
    net.set_source(&src);
    net.set_tail_hook([&](const Flit& tail, uint64_t cycle) { src.ejected(tail.packet, cycle); });
    run_direct(net, 0, max_cycles, [&] {
        src.check_dependencies();
        return src.done();
    });
    src.check_dependencies();
    const NetworkStats& s = net.stats();
    ReplayResult r;
    r.packets = h.num_packets;
    r.delivered = src.delivered();
    r.cycles = src.last_eject();
    r.trace_cycles = h.num_cycles;
    r.delayed = src.delayed();
    r.flit_hops = s.flit_hops.value();
    r.packet_latency = s.packet_latency.mean();
    r.hops = s.hops.mean();
    r.memory_packets = s.memory_packets.value();
    r.diverted_packets = s.diverted_packets.value();
    r.complete = src.done() && r.delivered == r.packets;
    r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

const sim::Params<ReplayConfig>& ReplayConfig::params() {
    using C = ReplayConfig;
    static const auto p = [] {
        sim::Params<C> p;
        p.add("flit_bytes", &C::flit_bytes, "bytes", "bytes per flit (a packet of B bytes is ceil(B / flit_bytes) flits)")
            .range(1, 4096);
        p.add("speedup", &C::speedup, "", "divides every trace cycle (loads a light trace harder)").range(0.001, 1e6);
        return p;
    }();
    return p;
}

}  // namespace stacksim::noc
