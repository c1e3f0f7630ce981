// SPDX-License-Identifier: Apache-2.0
// A kernel launch: the kernel, its grid, its parameter buffer and its run-time record.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "core/kernel.h"
#include "core/texture.h"
#include "sim/sparse_memory.h"

namespace stacksim::core {

struct TraceKernel;

/// One SM's part of a kernel's tallies (KernelLaunch::outcomes, warp_instructions): written by
/// that SM alone, read by the CTA dispatcher.
struct KernelTally {
    std::array<uint64_t, 8> outcomes{};  ///< issue slots by IssueOutcome (sm.h)
    uint64_t warp_instructions = 0;
    KernelTally& operator+=(const KernelTally& o) {
        for (size_t i = 0; i < outcomes.size(); ++i) outcomes[i] += o.outcomes[i];
        warp_instructions += o.warp_instructions;
        return *this;
    }
};

/// Everything an SM needs to run CTAs of one launched kernel.
struct KernelLaunch {
    uint32_t id = 0;                     ///< launch sequence number
    /// Code identity: launches of the same kernel code share it (numbered in order of first
    /// launch), so a relaunch finds its instructions in the I-cache (its 16 MB code window).
    uint32_t code_id = 0;
    const Kernel* kernel = nullptr;      ///< PTX kernel (functional + timing), or
    const TraceKernel* trace = nullptr;  ///< traced kernel (timing only); exactly one is set
    std::array<uint32_t, 3> grid{1, 1, 1};
    std::array<uint32_t, 3> block{1, 1, 1};
    std::vector<uint8_t> params;         ///< packed .param buffer
    uint32_t shared_bytes = 0;           ///< static + dynamic shared memory per CTA
    uint32_t regs_per_thread = 32;
    sim::SparseMemory* global = nullptr;
    /// Local memory of the launch's threads (.local, per thread `local_bytes` rounded to 4):
    /// CTA i's block starts at local_base + i * local_cta_bytes() (0: the kernel has none).
    uint64_t local_base = 0;
    uint32_t local_bytes = 0;
    uint64_t local_cta_bytes() const { return uint64_t{(local_bytes + 3u) / 4u * 4u} * warps_per_cta() * 32; }
    // The two tallies below are the CTA dispatcher's: each SM counts its part in its own
    // KernelTally, and the dispatcher adds them up here when the kernel ends (while it runs,
    // sched::CtaDispatcher::tally() sums them).
    /// Scheduler issue slots charged to this kernel, indexed by IssueOutcome (sm.h).
    std::array<uint64_t, 8> outcomes{};
    uint64_t warp_instructions = 0;      ///< warp instructions issued by its CTAs (all SMs)
    // The CTA tallies below are written by the CTA dispatcher alone, from the SMs' Finished
    // events (core/cta_port.h).
    uint64_t ctas_completed = 0;         ///< CTAs that ran to their end
    uint64_t cta_cycles = 0;             ///< sum over completed CTAs of their resident cycles
    uint64_t cta_instructions = 0;       ///< sum over completed CTAs of their warp instructions
    int priority = 0;                    ///< larger runs first; a kernel may preempt lower ones
    bool idempotent = false;             ///< rerunning a CTA from scratch gives the same result
    /// Cooperative launch: device address of the grid-barrier workspace (%envreg1/2), else 0.
    uint64_t grid_workspace = 0;
    const TextureTable* textures = nullptr;  ///< the device's texture objects (tex)

    uint64_t num_ctas() const;
    /// Name of the kernel for logs and stats.
    const std::string& name() const;
    uint32_t threads_per_cta() const { return block[0] * block[1] * block[2]; }
    uint32_t warps_per_cta() const { return (threads_per_cta() + 31) / 32; }
    /// CTA coordinates of linear CTA index `i` (x fastest).
    std::array<uint32_t, 3> cta_coords(uint64_t i) const {
        return {static_cast<uint32_t>(i % grid[0]), static_cast<uint32_t>((i / grid[0]) % grid[1]),
                static_cast<uint32_t>(i / (uint64_t{grid[0]} * grid[1]))};
    }
};

}  // namespace stacksim::core
