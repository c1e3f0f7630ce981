// SPDX-License-Identifier: Apache-2.0
// Host DRAM as seen by the DMA engines: one bandwidth shared by all copies in flight.
#include "memory/host_memory.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sim/error.h"

namespace stacksim::memory {

void HostMemoryConfig::validate() const {
    if (!(std::isfinite(bandwidth_gbps) && bandwidth_gbps > 0))
        throw sim::ConfigError("bandwidth_gbps: must be positive");
}

HostMemory::HostMemory(const std::string& name, const HostMemoryConfig& cfg, sim::StatRegistry& stats)
    : m_cfg(cfg) {
    m_cfg.validate();
    sim::StatGroup g(stats, name);
    g.add("bytes_read", m_read, "bytes read by host-to-device copies", "bytes");
    g.add("bytes_written", m_written, "bytes written by device-to-host copies", "bytes");
}

std::vector<double> HostMemory::share(const std::vector<double>& caps_gbps) const {
    // Water filling: visit streams from the smallest cap up; each takes min(cap, fair share
    // of what is left).
    std::vector<size_t> order(caps_gbps.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return caps_gbps[a] < caps_gbps[b]; });
    std::vector<double> out(caps_gbps.size(), 0.0);
    double left = m_cfg.bandwidth_gbps;
    for (size_t k = 0; k < order.size(); ++k) {
        double fair = left / static_cast<double>(order.size() - k);
        double r = std::min(caps_gbps[order[k]], fair);
        out[order[k]] = r;
        left -= r;
    }
    return out;
}

const sim::Params<HostMemoryConfig>& HostMemoryConfig::params() {
    static const auto p = [] {
        sim::Params<HostMemoryConfig> p;
        p.add("bandwidth_gbps", &HostMemoryConfig::bandwidth_gbps, "GB/s",
              "host DRAM bandwidth shared by the DMA engines' copies (default: two DDR4-3200 channels)")
            .range(0.001, 100000.0);
        return p;
    }();
    return p;
}

}  // namespace stacksim::memory
