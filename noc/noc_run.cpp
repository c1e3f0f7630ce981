// SPDX-License-Identifier: Apache-2.0
// Open-loop NoC measurement and rate sweeps.
#include "noc/noc_run.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>
#include <systemc>

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
                        sim::ClockDomain* domain) {
    ncfg.validate();
    tcfg.validate(ncfg.width, ncfg.height);
    m.validate();
    auto t0 = std::chrono::steady_clock::now();
    Network net(ncfg, domain);
    SyntheticSource src(tcfg, ncfg.width, ncfg.height);
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
        cycles = run_direct(net, 0, cap, [&] { return s.measured_outstanding == 0 &&
                                                      src.next_cycle() >= end; });
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
    r.saturated = s.measured_outstanding != 0 || r.packet_latency > m.latency_bound;
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
        "rate,offered,accepted,packet_latency,network_latency,hops,flit_hops,measured_packets,cycles,saturated\n";
    for (const auto& r : rows)
        out += fmt::format("{},{:.6f},{:.6f},{:.3f},{:.3f},{:.4f},{},{},{},{}\n", r.rate, r.offered, r.accepted,
                           r.packet_latency, r.network_latency, r.hops, r.flit_hops, r.measured_packets, r.cycles,
                           r.saturated ? 1 : 0);
    return out;
}

}  // namespace stacksim::noc
