// SPDX-License-Identifier: Apache-2.0
// The VCD waveform of a run: warps' issue, PC and SIMT stack depth, sampled rates, routers' buffers.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/sm_observer.h"
#include "top/stat_sampler.h"
#include "top/vcd_writer.h"

namespace stacksim::top {

class GpuSystem;

/// Signals, one scope each: gpu.smN.wM.{issue (1 for the cycle it issues), pc, simt_depth}
/// from the SM's events (so only on the cycles something happens), gpu.counters.* (the
/// sampler's series) and gpu.noc.routerK.flits (flits buffered, sampled). One time unit is one
/// core cycle.
class VcdTrace : public core::SmObserver {
public:
    /// `signals`: "smN" (every warp slot of SM N), "smN.wM", "counters", "routers" (every router
    /// of a mesh or stacked interconnect) or "routerK"; empty: sm0, counters and routers. Adds
    /// its router series to `sampler`. Throws InputError naming a bad signal.
    VcdTrace(const std::string& path, const std::vector<std::string>& signals, uint32_t warps_per_sm,
             GpuSystem& gpu, StatSampler& sampler);
    bool watches(uint32_t sm, uint32_t warp) const override { return m_warps.count({sm, warp}) != 0; }
    void on_event(const core::SmEvent& e) override;
    /// Writes the remaining changes and renames the file into place.
    void finish(uint64_t end_cycle) { m_vcd.finish(end_cycle); }

private:
    struct WarpSignals {
        unsigned issue, pc, depth;
    };
    VcdWriter m_vcd;
    std::map<std::pair<uint32_t, uint32_t>, WarpSignals> m_warps;
};

}  // namespace stacksim::top
