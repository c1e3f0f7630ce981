// SPDX-License-Identifier: Apache-2.0
// Configuration of the host-GPU PCIe link and its DMA (copy) engines.
#pragma once
#include "sim/param.h"
#include <cstdint>

namespace stacksim::memory {

/// The PCIe link between host memory and the GPU. Each direction has its own data rate
/// (PCIe is full duplex). The rate of a direction is, in order of precedence:
/// `h2d_gbps` / `d2h_gbps` if non-zero; else `generation` x `lanes` if `generation` is
/// non-zero; else kDefaultGbps. GB/s are 10^9 bytes per second.
struct PcieConfig {
    static constexpr double kDefaultGbps = 16.0;      ///< SPEC §2's 16 GB/s case, per direction
    static constexpr uint32_t kTlpOverheadBytes = 24; ///< per-TLP framing: header, sequence, LCRC

    uint32_t generation = 0;  ///< PCIe generation 1-6; 0 = not used (rates below decide)
    uint32_t lanes = 16;      ///< link width: 1, 2, 4, 8, 12 or 16 (used with `generation`)
    double h2d_gbps = 0.0;    ///< host-to-device data rate, GB/s; 0 = from generation/default
    double d2h_gbps = 0.0;    ///< device-to-host data rate, GB/s; 0 = from generation/default
    double latency_ns = 500.0;                 ///< one-way link latency (last byte's flight), ns
    double per_transfer_overhead_ns = 1000.0;  ///< DMA setup per copy (descriptor, doorbell), ns
    uint32_t dma_engines = 2;  ///< 2: one engine per direction; 1: both directions share one
    /// Max TLP payload, bytes (128-4096, power of two); 0 = ignore TLP framing. When set, every
    /// rate is scaled by payload / (payload + kTlpOverheadBytes).
    uint32_t max_payload_bytes = 0;

    /// The declared parameters (name, unit, description, allowed values of each key).
    static const sim::Params<PcieConfig>& params();
    /// Throws ConfigError("key: message") on an invalid value.
    void validate() const;

    /// Usable data rate of one lane of `generation` (1-6) after line encoding, GB/s:
    /// gen1 2.5 GT/s and gen2 5 GT/s with 8b/10b (x 0.8); gen3 8, gen4 16 and gen5 32 GT/s with
    /// 128b/130b; gen6 64 GT/s in FLIT mode (242 of 256 bytes per FLIT carry TLPs). 0 if invalid.
    static double lane_gbps(uint32_t generation);

    /// Effective host-to-device data rate, GB/s (precedence above, TLP framing applied).
    double h2d_rate_gbps() const;
    /// Effective device-to-host data rate, GB/s.
    double d2h_rate_gbps() const;

private:
    double resolve(double explicit_gbps) const;
};

}  // namespace stacksim::memory
