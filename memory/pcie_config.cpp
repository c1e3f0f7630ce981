// SPDX-License-Identifier: Apache-2.0
// Configuration of the host-GPU PCIe link and its DMA (copy) engines.
#include "memory/pcie_config.h"

#include <cmath>

#include "sim/error.h"

namespace stacksim::memory {

namespace {
bool non_negative(double v) { return std::isfinite(v) && v >= 0.0; }
}  // namespace

void PcieConfig::validate() const {
    if (generation > 6) throw sim::ConfigError("generation: must be 1 to 6 (or 0 for unused)");
    if (!(lanes == 1 || lanes == 2 || lanes == 4 || lanes == 8 || lanes == 12 || lanes == 16))
        throw sim::ConfigError("lanes: must be 1, 2, 4, 8, 12 or 16");
    if (!non_negative(h2d_gbps)) throw sim::ConfigError("h2d_gbps: must be positive (or 0 for unset)");
    if (!non_negative(d2h_gbps)) throw sim::ConfigError("d2h_gbps: must be positive (or 0 for unset)");
    if (!non_negative(latency_ns)) throw sim::ConfigError("latency_ns: must be zero or positive");
    if (!non_negative(per_transfer_overhead_ns))
        throw sim::ConfigError("per_transfer_overhead_ns: must be zero or positive");
    if (dma_engines != 1 && dma_engines != 2) throw sim::ConfigError("dma_engines: must be 1 or 2");
    bool pow2 = (max_payload_bytes & (max_payload_bytes - 1)) == 0;
    if (max_payload_bytes != 0 && (max_payload_bytes < 128 || max_payload_bytes > 4096 || !pow2))
        throw sim::ConfigError("max_payload_bytes: must be a power of two from 128 to 4096 (or 0)");
}

double PcieConfig::lane_gbps(uint32_t generation) {
    // Transfer rate (GT/s, one bit per transfer per lane) / 8 bits x encoding efficiency.
    switch (generation) {
    case 1: return 2.5 / 8.0 * 0.8;
    case 2: return 5.0 / 8.0 * 0.8;
    case 3: return 8.0 / 8.0 * 128.0 / 130.0;
    case 4: return 16.0 / 8.0 * 128.0 / 130.0;
    case 5: return 32.0 / 8.0 * 128.0 / 130.0;
    case 6: return 64.0 / 8.0 * 242.0 / 256.0;
    default: return 0.0;
    }
}

double PcieConfig::resolve(double explicit_gbps) const {
    double raw = explicit_gbps > 0.0   ? explicit_gbps
                 : generation != 0     ? lane_gbps(generation) * lanes
                                       : kDefaultGbps;
    if (max_payload_bytes == 0) return raw;
    return raw * max_payload_bytes / static_cast<double>(max_payload_bytes + kTlpOverheadBytes);
}

double PcieConfig::h2d_rate_gbps() const { return resolve(h2d_gbps); }
double PcieConfig::d2h_rate_gbps() const { return resolve(d2h_gbps); }

const sim::Params<PcieConfig>& PcieConfig::params() {
    using C = PcieConfig;
    static const auto p = [] {
        sim::Params<C> p;
        auto rate = [](double v) { return v == 0.0 || (v >= 0.001 && v <= 100000.0); };
        p.add("generation", &C::generation, "", "PCIe generation 1-6 (rate = generation x lanes); 0 = use the rates")
            .range(0, 6);
        p.add("lanes", &C::lanes, "lanes", "link width, used with generation")
            .check([](uint32_t v) { return v == 1 || v == 2 || v == 4 || v == 8 || v == 12 || v == 16; },
                   "1, 2, 4, 8, 12 or 16");
        p.add("h2d_gbps", &C::h2d_gbps, "GB/s", "host-to-device data rate; 0 = from generation, else 16")
            .check(rate, "0 or 0.001..100000");
        p.add("d2h_gbps", &C::d2h_gbps, "GB/s", "device-to-host data rate; 0 = from generation, else 16")
            .check(rate, "0 or 0.001..100000");
        p.add("latency_ns", &C::latency_ns, "ns", "one-way link latency (the last byte's flight)").range(0.0, 1e9);
        p.add("per_transfer_overhead_ns", &C::per_transfer_overhead_ns, "ns",
              "DMA setup per copy (descriptor, doorbell)")
            .range(0.0, 1e9);
        p.add("dma_engines", &C::dma_engines, "engines", "2: one copy engine per direction; 1: both directions share one")
            .range(1, 2);
        p.add("max_payload_bytes", &C::max_payload_bytes, "bytes",
              "max TLP payload (rates scaled by payload / (payload + 24)); 0 = no TLP framing")
            .check([](uint32_t v) { return v == 0 || (v >= 128 && v <= 4096 && (v & (v - 1)) == 0); },
                   "0 or a power of two in 128..4096");
        return p;
    }();
    return p;
}

}  // namespace stacksim::memory
