// SPDX-License-Identifier: Apache-2.0
// Host DRAM as seen by the DMA engines: one bandwidth shared by all copies in flight.
#pragma once
#include "sim/param.h"
#include <cstdint>
#include <string>
#include <vector>

#include "sim/stats.h"

namespace stacksim::memory {

/// Host DRAM parameters. Only its bandwidth matters to copies: a copy never runs faster
/// than the host memory share it gets.
struct HostMemoryConfig {
    /// Peak bandwidth usable by DMA, GB/s (10^9 bytes/s). Default: DDR4-3200, two channels
    /// (2 x 8 bytes x 3.2 GT/s = 51.2 GB/s).
    double bandwidth_gbps = 51.2;

    /// The declared parameters (name, unit, description, allowed values of each key).
    static const sim::Params<HostMemoryConfig>& params();
    /// Throws ConfigError("key: message") on an invalid value.
    void validate() const;
};

/// Plain C++ (no SystemC): the DMA engines ask it how to split its bandwidth and report the
/// bytes they moved. Sharing is max-min fair ("water filling"): every stream gets an equal
/// share, a stream whose own cap is lower keeps only its cap and the rest is split among the
/// others. Reads and writes draw on the same bandwidth.
class HostMemory {
public:
    /// `name`: stats prefix ("host.memory").
    HostMemory(const std::string& name, const HostMemoryConfig& cfg, sim::StatRegistry& stats);

    /// Rates granted to streams that could each go at most `caps_gbps[i]` GB/s; the result
    /// has the same order and sums to at most bandwidth_gbps().
    std::vector<double> share(const std::vector<double>& caps_gbps) const;

    /// Bytes read by a host-to-device copy.
    void record_read(uint64_t bytes) { m_read += bytes; }
    /// Bytes written by a device-to-host copy.
    void record_write(uint64_t bytes) { m_written += bytes; }

    double bandwidth_gbps() const { return m_cfg.bandwidth_gbps; }
    uint64_t bytes_read() const { return m_read.value(); }
    uint64_t bytes_written() const { return m_written.value(); }

private:
    HostMemoryConfig m_cfg;
    sim::Counter m_read, m_written;
};

}  // namespace stacksim::memory
