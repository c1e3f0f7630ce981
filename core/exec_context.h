// SPDX-License-Identifier: Apache-2.0
// Functional state the executor reads and writes: per-CTA and per-warp.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "core/call_frames.h"
#include "core/instruction.h"
#include "core/texture.h"
#include "sim/sparse_memory.h"

namespace stacksim::core {

constexpr unsigned kWarpSize = 32;

/// Base of the shared-memory window in the generic address space (cvta.shared adds it,
/// cvta.to.shared subtracts it; generic ld/st inside the window go to shared memory).
constexpr uint64_t kSharedWindowBase = 0xFF00'0000'0000'0000ull;
constexpr uint64_t kSharedWindowBytes = 1ull << 32;
/// Base of the local-memory window in the generic address space (cvta.local adds it): a
/// generic address in [kLocalWindowBase, kLocalWindowBase + kLocalWindowBytes) is the calling
/// thread's local offset.
constexpr uint64_t kLocalWindowBase = 0xFE00'0000'0000'0000ull;
constexpr uint64_t kLocalWindowBytes = 1ull << 32;

/// State shared by every warp of one CTA.
struct CtaExecContext {
    std::array<uint32_t, 3> ctaid{};
    std::array<uint32_t, 3> ntid{1, 1, 1};
    std::array<uint32_t, 3> nctaid{1, 1, 1};
    uint32_t sm_id = 0;
    std::vector<uint8_t> shared;               ///< static + dynamic shared memory, bytes
    const std::vector<uint8_t>* params = nullptr;  ///< kernel parameter buffer
    sim::SparseMemory* global = nullptr;       ///< device memory
    /// Local memory: `local_bytes` per thread, interleaved by 32-bit word from `local_base`
    /// (word w of thread t at local_base + (w * threads + t) * 4, threads = the CTA's warps x 32).
    uint64_t local_base = 0;
    uint32_t local_bytes = 0;
    // Special registers (core/ops_warp.cpp).
    uint32_t num_sms = 1;                      ///< %nsmid
    uint32_t max_warps = 64;                   ///< %nwarpid: warp slots of the SM
    uint32_t grid_id = 0;                      ///< %gridid: launch sequence number
    uint32_t dynamic_smem = 0;                 ///< %dynamic_smem_size, bytes
    uint64_t clock_period_ps = 1000;           ///< SM clock period, for %globaltimer (ns)
    uint64_t grid_workspace = 0;               ///< %envreg2 (low) / %envreg1 (high): the
                                               ///< grid-barrier word of a cooperative launch
    const TextureTable* textures = nullptr;    ///< texture objects by handle (tex)
    /// bar.red (__syncthreads_count/_and/_or): the CTA's reduction over the threads that
    /// arrived at the barrier so far (core/ops_barrier.cpp); cleared when the barrier releases.
    struct BarrierReduction {
        uint32_t count = 0;     ///< popc: threads whose predicate was true
        bool all = true;        ///< and: every arrived thread's predicate was true
        bool any = false;       ///< or: some arrived thread's predicate was true
    } bar_red;
};

/// Registers and thread ids of one warp. Registers are stored lane-minor:
/// regs[reg * kWarpSize + lane] holds the raw bits (zero-extended) of that register.
struct WarpExecContext {
    CtaExecContext* cta = nullptr;
    uint32_t warp_in_cta = 0;
    uint32_t valid_mask = 0;  ///< lanes that hold a thread
    std::array<uint32_t, kWarpSize> tid_x{}, tid_y{}, tid_z{};
    std::vector<uint64_t> regs;
    uint64_t clock = 0;       ///< SM cycle, for %clock/%clock64
    uint32_t carry = 0;       ///< CC.CF per lane (bit = lane): add.cc/addc/sub.cc/subc/mad.cc/madc
    /// bar.red waiting for the barrier to release: its destination register (kNoReg: none),
    /// reduction (core::BarRedOp) and the lanes that receive the result.
    uint16_t bar_red_dst = kNoReg;
    uint8_t bar_red_op = 0;
    uint32_t bar_red_lanes = 0;
    CallFrames calls;         ///< device-function calls in progress (core/call_frames.h)

    uint64_t& reg(uint16_t r, unsigned lane) { return regs[r * kWarpSize + lane]; }
    uint64_t reg(uint16_t r, unsigned lane) const { return regs[r * kWarpSize + lane]; }
};

/// What executing one warp instruction produced, for the timing model.
struct ExecResult {
    uint32_t active_mask = 0;  ///< lanes that executed (active and guard true)
    uint32_t taken_mask = 0;   ///< Branch: lanes that take the branch
    // Memory instructions (ld, st, atom, red):
    StateSpace space = StateSpace::None;  ///< resolved space (Global or Shared; generic resolved)
    bool is_load = false, is_store = false, is_atomic = false;
    uint8_t access_bytes = 0;  ///< bytes per lane (type size x vector width)
    std::array<uint64_t, kWarpSize> addr{};  ///< per active lane; shared: offset in the CTA window
    uint32_t sleep_ns = 0;     ///< nanosleep: the warp issues nothing for this long (set by the op)
    uint32_t call_function = 0;  ///< call: module function id the lanes of taken_mask enter
};

}  // namespace stacksim::core
