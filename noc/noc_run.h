// SPDX-License-Identifier: Apache-2.0
// Open-loop NoC measurement (warm-up, window, drain, saturation) and rate sweeps.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "noc/network.h"
#include "noc/traffic.h"

namespace stacksim::sim {
class ClockDomain;
}

namespace stacksim::noc {

/// Measurement settings ([traffic] section, measurement part).
struct MeasureConfig {
    uint64_t warmup = 2000;         ///< cycles before the window
    uint64_t measure = 10000;       ///< window length; packets created in it are measured
    uint64_t drain_cap = 20000;     ///< max cycles after the window to eject measured packets
    double latency_bound = 1000.0;  ///< mean measured packet latency above this -> saturated, cycles
    /// The declared parameters ([traffic], with TrafficConfig's).
    static const sim::Params<MeasureConfig>& params();
    /// Throws sim::ConfigError("key: message").
    void validate() const;
};

/// One measured operating point. Throughputs are in flits/node/cycle, latencies in cycles.
struct RunResult {
    double rate = 0;             ///< configured offered load
    double offered = 0;          ///< flits created in the window / (nodes x window)
    double accepted = 0;         ///< flits ejected in the window / (nodes x window)
    double packet_latency = 0;   ///< measured packets: creation -> tail ejection
    double network_latency = 0;  ///< measured packets: head injection -> tail ejection
    double hops = 0;             ///< measured packets: mean router-to-router links
    uint64_t flit_hops = 0;      ///< all link traversals of the run
    uint64_t measured_packets = 0;
    uint64_t cycles = 0;         ///< cycles simulated
    bool saturated = false;      ///< drain cap hit, latency above the bound, or accepted < 97% of offered
    uint64_t stuck_packets = 0;  ///< measured packets not ejected within the drain cap
    double wall_seconds = 0;     ///< host time of the run
    // Layers (link utilisation = traversals / (links x cycles)) and layer policy.
    double upper_utilisation = 0, lower_utilisation = 0, vertical_utilisation = 0;
    double edge_utilisation = 0, centre_utilisation = 0;  ///< interposer links into edge / other routers
    double upper_latency = 0;    ///< measured packets that stayed on the upper (only) layer
    double lower_latency = 0;    ///< measured packets that crossed the interposer
    uint64_t memory_packets = 0, diverted_packets = 0;
    uint64_t ring_sent = 0, ring_dropped = 0, ring_delivered = 0;  ///< DLL's latency ring
};

/// Told how far a run has got: a fraction of its expected cycles (warm-up and window; the drain
/// after them is not known in advance), 0..1.
using RunProgress = std::function<void(double fraction)>;

/// Runs one open-loop measurement. With `domain` the network is ticked by that ClockDomain
/// through sc_start() (call at most once per process); without, by run_direct(). Both give
/// identical results. `progress`, if given, is called now and then (direct drive only).
RunResult run_open_loop(const NetworkConfig& net, const TrafficConfig& traffic, const MeasureConfig& m,
                        sim::ClockDomain* domain = nullptr, const RunProgress& progress = {});

/// Runs `rates` in order (direct drive), stopping after the first saturated point.
std::vector<RunResult> sweep(const NetworkConfig& net, TrafficConfig traffic, const MeasureConfig& m,
                             const std::vector<double>& rates);

/// CSV with a header line: rate,offered,accepted,packet_latency,network_latency,hops,...
std::string curve_csv(const std::vector<RunResult>& rows);

/// Saturation throughput: the largest accepted throughput of an unsaturated run found by
/// bisecting the offered rate in [lo, hi] to within `tolerance` flits/node/cycle. Returns the
/// last unsaturated run (rate 0 and accepted 0 when even `lo` saturates).
/// `progress` gets the fraction of the whole search. `above`, if given, receives the lowest
/// saturated run the search made (rate 0 when none saturated).
RunResult saturation_throughput(const NetworkConfig& net, TrafficConfig traffic, const MeasureConfig& m, double lo,
                                double hi, double tolerance = 0.005, const RunProgress& progress = {},
                                RunResult* above = nullptr);
/// Why `r` is saturated under `m` ("mean latency 412.3 > 300 cycles; accepted 94.1% of offered"),
/// or "" when it is not.
std::string saturation_reason(const RunResult& r, const MeasureConfig& m);
/// How many runs saturation_throughput() makes for [lo, hi] and `tolerance` (at most).
unsigned saturation_runs(double lo, double hi, double tolerance = 0.005);

}  // namespace stacksim::noc
