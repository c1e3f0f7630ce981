// SPDX-License-Identifier: Apache-2.0
// Open-loop NoC measurement and rate sweeps.
#include "noc/noc_run.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>
#include <systemc>

#include "noc/latency_ring.h"
#include "noc/layer_policy_dll.h"
#include "sim/clock_domain.h"
#include "sim/error.h"

namespace stacksim::noc {

void MeasureConfig::validate() const {
    auto fail = [](const char* key, const std::string& m) { throw sim::ConfigError(std::string(key) + ": " + m); };
    if (measure < 1) fail("measure", "must be at least 1 cycle");
    if (drain_cap < 1) fail("drain_cap", "must be at least 1 cycle");
    if (!(latency_bound > 0.0)) fail("latency_bound", "must be positive");
}

RunResult run_open_loop(const NetworkConfig& ncfg, const TrafficConfig& tcfg, const MeasureConfig& m,
                        sim::ClockDomain* domain, const RunProgress& progress) {
    ncfg.validate();
    tcfg.validate(ncfg.width, ncfg.height, ncfg.memory_terminals());
    m.validate();
    auto t0 = std::chrono::steady_clock::now();
    Network net(ncfg, domain);
    SyntheticSource src(tcfg, ncfg.width, ncfg.height, ncfg.memory_terminals());
    const uint64_t begin = m.warmup, end = m.warmup + m.measure, cap = end + m.drain_cap;
    src.set_window(begin, end);
    net.set_window(begin, end);
    net.set_source(&src);
    const NetworkStats& s = net.stats();
    // Done once the window is over and every measured packet is out.
    uint64_t cycles = 0;
    if (domain) {
        const uint64_t chunk = 500;
        uint64_t now = 0;
        while (now < cap) {
            uint64_t step = std::min(chunk, cap - now);
            sc_core::sc_start(domain->period() * static_cast<double>(step));
            now += step;
            if (now >= end && s.measured_outstanding == 0) break;
        }
        cycles = now;
    } else {
        uint64_t ticks = 0;
        cycles = run_direct(net, 0, cap, [&](uint64_t c) {
            if (progress && (++ticks & 0x3FFF) == 0) progress(std::min(1.0, static_cast<double>(c) / end));
            return s.measured_outstanding == 0 && src.next_cycle() >= end;
        });
    }
    RunResult r;
    r.rate = tcfg.rate;
    double denom = static_cast<double>(ncfg.nodes()) * static_cast<double>(m.measure);
    r.offered = static_cast<double>(src.window_flits()) / denom;
    r.accepted = static_cast<double>(s.window_flits_ejected.value()) / denom;
    r.packet_latency = s.measured_packet_latency.mean();
    r.network_latency = s.measured_network_latency.mean();
    r.hops = s.measured_hops.mean();
    r.measured_packets = s.measured_packet_latency.count();
    r.flit_hops = s.flit_hops.value();
    r.cycles = cycles;
    // Saturated: measured packets stuck, latency past the bound, or the network falling behind
    // the offered load (accepted more than 3% below offered in the window).
    r.stuck_packets = s.measured_outstanding;
    r.saturated = s.measured_outstanding != 0 || r.packet_latency > m.latency_bound || r.accepted < 0.97 * r.offered;
    const Topology& topo = net.topology();
    auto util = [&](const sim::Counter& c, LinkKind k) {
        unsigned links = topo.links(k);
        return links && cycles ? static_cast<double>(c.value()) / (static_cast<double>(links) * cycles) : 0.0;
    };
    r.upper_utilisation = util(s.upper_flit_hops, LinkKind::Upper);
    r.lower_utilisation = util(s.lower_flit_hops, LinkKind::Lower);
    r.vertical_utilisation = util(s.vertical_flit_hops, LinkKind::Vertical);
    if (unsigned e = topo.edge_links(); e && cycles) {
        unsigned c = topo.links(LinkKind::Lower) - e;
        r.edge_utilisation = static_cast<double>(s.edge_flit_hops.value()) / (static_cast<double>(e) * cycles);
        if (c)
            r.centre_utilisation = static_cast<double>(s.lower_flit_hops.value() - s.edge_flit_hops.value()) /
                                   (static_cast<double>(c) * cycles);
    }
    r.upper_latency = s.upper_packet_latency.mean();
    r.lower_latency = s.lower_packet_latency.mean();
    r.memory_packets = s.memory_packets.value();
    r.diverted_packets = s.diverted_packets.value();
    if (const LatencyRing* ring = net.policy() ? dll_ring(*net.policy()) : nullptr) {
        r.ring_sent = ring->sent();
        r.ring_dropped = ring->dropped();
        r.ring_delivered = ring->delivered();
    }
    r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

std::vector<RunResult> sweep(const NetworkConfig& net, TrafficConfig traffic, const MeasureConfig& m,
                             const std::vector<double>& rates) {
    std::vector<RunResult> rows;
    for (double rate : rates) {
        traffic.rate = rate;
        rows.push_back(run_open_loop(net, traffic, m));
        if (rows.back().saturated) break;
    }
    return rows;
}

std::string curve_csv(const std::vector<RunResult>& rows) {
    std::string out =
        "rate,offered,accepted,packet_latency,network_latency,hops,flit_hops,measured_packets,cycles,saturated,"
        "upper_utilisation,lower_utilisation,vertical_utilisation,upper_latency,lower_latency,memory_packets,"
        "diverted_packets,ring_sent,ring_dropped,ring_delivered,edge_utilisation,centre_utilisation\n";
    // Latencies and hops are empty when no packet was measured (rate 0).
    auto measured = [](const RunResult& r, double v, const char* format) {
        return r.measured_packets ? fmt::format(format, v) : std::string();
    };
    for (const auto& r : rows)
        out += fmt::format("{},{:.6f},{:.6f},{},{},{},{},{},{},{},{:.5f},{:.5f},{:.5f},{:.3f},{:.3f},{},{},{},{},{},{:.5f},{:.5f}\n",
                           r.rate, r.offered, r.accepted, measured(r, r.packet_latency, "{:.3f}"),
                           measured(r, r.network_latency, "{:.3f}"), measured(r, r.hops, "{:.4f}"), r.flit_hops,
                           r.measured_packets, r.cycles, r.saturated ? 1 : 0, r.upper_utilisation,
                           r.lower_utilisation, r.vertical_utilisation, r.upper_latency, r.lower_latency,
                           r.memory_packets, r.diverted_packets, r.ring_sent, r.ring_dropped, r.ring_delivered,
                           r.edge_utilisation, r.centre_utilisation);
    return out;
}

unsigned saturation_runs(double lo, double hi, double tolerance) {
    unsigned n = 1;
    for (double width = hi - lo; width > tolerance; width *= 0.5) ++n;
    return n;
}

std::string saturation_reason(const RunResult& r, const MeasureConfig& m) {
    std::string why;
    auto add = [&why](const std::string& s) { why += (why.empty() ? "" : "; ") + s; };
    if (r.stuck_packets) add(fmt::format("{} measured packets not ejected within the drain cap", r.stuck_packets));
    if (r.packet_latency > m.latency_bound) add(fmt::format("mean latency {:.1f} > {:g} cycles", r.packet_latency, m.latency_bound));
    if (r.accepted < 0.97 * r.offered)
        add(fmt::format("accepted {:.1f}% of offered (< 97%)", r.offered > 0 ? 100 * r.accepted / r.offered : 0.0));
    return why;
}

RunResult saturation_throughput(const NetworkConfig& net, TrafficConfig traffic, const MeasureConfig& m, double lo,
                                double hi, double tolerance, const RunProgress& progress, RunResult* above) {
    if (above) *above = RunResult{};
    const double runs = saturation_runs(lo, hi, tolerance);
    unsigned done = 0;
    RunProgress step;
    if (progress) step = [&](double f) { progress((done + f) / runs); };
    RunResult best;
    traffic.rate = lo;
    RunResult r = run_open_loop(net, traffic, m, nullptr, step);
    ++done;
    if (r.saturated) {
        if (above) *above = r;
        return best;
    }
    best = r;
    while (hi - lo > tolerance) {
        double mid = 0.5 * (lo + hi);
        traffic.rate = mid;
        r = run_open_loop(net, traffic, m, nullptr, step);
        ++done;
        if (r.saturated) {
            hi = mid;
            if (above) *above = r;  // each saturated run is lower than the one before
        } else {
            lo = mid;
            if (r.accepted > best.accepted) best = r;
        }
    }
    return best;
}

const sim::Params<MeasureConfig>& MeasureConfig::params() {
    using C = MeasureConfig;
    static const auto p = [] {
        sim::Params<C> p;
        // Up to 10^6 cycles each (BookSim measures in 10^4-cycle samples): an 8x8 mesh simulates
        // about 10^5 cycles per host second, so a point stays within seconds to minutes.
        p.add("warmup", &C::warmup, "cycles", "cycles before the measurement window").range(0, 1000000);
        p.add("measure", &C::measure, "cycles", "window length; packets created in it are measured")
            .range(1, 1000000);
        p.add("drain_cap", &C::drain_cap, "cycles", "most cycles after the window to eject the measured packets")
            .range(1, 1000000);
        p.add("latency_bound", &C::latency_bound, "cycles", "mean measured packet latency above this = saturated")
            .range(1.0, 1e9);
        return p;
    }();
    return p;
}

}  // namespace stacksim::noc
