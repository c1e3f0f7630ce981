// SPDX-License-Identifier: Apache-2.0
// Example platform from stacksim modules: a 4x4 router mesh driven by a hotspot traffic source of its own.
#include <cstdint>
#include <cstdio>

#include <systemc>

#include "noc/network.h"
#include "noc/routing.h"
#include "sim/clock_domain.h"
#include "sim/stats.h"

namespace {

using stacksim::noc::Network;
using stacksim::noc::Packet;

/// Every `period` cycles each node sends one 4-flit packet; one in `hot` goes to node 0 (the
/// hotspot), the others to the node diagonally opposite. Deterministic: no random numbers.
class HotspotSource : public stacksim::noc::PacketSource {
public:
    HotspotSource(unsigned nodes, uint64_t period, unsigned hot, uint64_t until)
        : m_nodes(nodes), m_period(period), m_hot(hot), m_until(until) {}

    uint64_t next_cycle() const override { return m_next < m_until ? m_next : ~uint64_t{0}; }

    void generate(uint64_t cycle, Network& net) override {
        for (; m_next <= cycle && m_next < m_until; m_next += m_period) {
            for (unsigned src = 0; src < m_nodes; ++src) {
                Packet p;
                p.id = m_id++;
                p.inject_cycle = m_next;
                p.src = src;
                p.dst = (p.id % m_hot == 0 && src != 0) ? 0 : m_nodes - 1 - src;
                if (p.dst == src) continue;
                p.flits = 4;
                p.measured = true;
                net.enqueue(p);
                ++m_sent;
            }
        }
    }

    uint64_t sent() const { return m_sent; }

private:
    unsigned m_nodes;
    uint64_t m_period;
    unsigned m_hot;
    uint64_t m_until;
    uint64_t m_next = 0, m_id = 0, m_sent = 0;
};

}  // namespace

int sc_main(int, char*[]) {
    // The routing functions register themselves at static initialisation: present only because
    // the package links the library whole.
    std::printf("routing functions:");
    for (const auto& name : stacksim::noc::routing_functions().names()) std::printf(" %s", name.c_str());
    std::printf("\n");
    stacksim::noc::NetworkConfig cfg;  // stacksim's defaults: XY routing, 4 VCs x 8 flits, 3 stages
    cfg.width = 4;
    cfg.height = 4;
    stacksim::sim::ClockDomain clock("noc_clock", 1000);  // 1 GHz: 1000 ps per cycle
    Network net(cfg, &clock);
    HotspotSource source(cfg.nodes(), 20, 4, 2000);
    net.set_source(&source);

    stacksim::sim::StatRegistry stats;
    stacksim::sim::StatGroup group(stats, "hotspot.net");
    net.register_stats(group);

    sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US));  // 10,000 cycles: the traffic stops at 2,000
    std::printf("%s", stats.to_text().c_str());
    const auto ejected = static_cast<uint64_t>(stats.value("hotspot.net.packets_ejected"));
    std::printf("sent %llu packets, %llu delivered, mean latency %.2f cycles\n",
                static_cast<unsigned long long>(source.sent()), static_cast<unsigned long long>(ejected),
                stats.value("hotspot.net.packet_latency"));
    return ejected == source.sent() && ejected > 0 ? 0 : 1;
}
