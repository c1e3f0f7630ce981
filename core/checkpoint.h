// SPDX-License-Identifier: Apache-2.0
// PEP checkpoints of a CTA: dirty tracking, what a checkpoint order asks, and their counters.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "sim/stats.h"

namespace stacksim::core {

/// Shared-memory dirty-tracking granularity: one bit per block of this many bytes.
constexpr uint32_t kSmemDirtyBlockBytes = 128;

/// One bit per register id of a warp (ids alias modulo 256: a kernel with more than 256
/// register ids shares bits, which can only make a save larger, never skip a register
/// that was written, as long as the count is capped at the kernel's registers).
using RegisterMask = std::array<uint64_t, 4>;

inline void mark_register(RegisterMask& m, uint16_t reg) { m[(reg >> 6) & 3] |= uint64_t{1} << (reg & 63); }
inline uint32_t count_registers(const RegisterMask& m) {
    uint32_t n = 0;
    for (uint64_t w : m) n += static_cast<uint32_t>(__builtin_popcountll(w));
    return n;
}

/// Totals of the checkpoint mechanism, owned by the preemption controller (registered as
/// gpu.preemption.pep.* only when a dirty-tracking policy runs) and bumped by the SMs.
struct CheckpointCounters {
    sim::Counter first;          ///< first (proactive) checkpoints taken, CTAs
    sim::Counter second;         ///< saves at the request of CTAs with a first checkpoint, CTAs
    sim::Counter single;         ///< saves at the request of CTAs without one, CTAs
    sim::Counter first_bytes;    ///< bytes of first checkpoints
    sim::Counter second_bytes;   ///< bytes of saves at the request (second or single)
    sim::Counter full_bytes;     ///< what those saves would have been without dirty tracking
    sim::Counter dram_bytes;     ///< bytes written to the context area (not kept in place)
    sim::Counter inplace_bytes;  ///< bytes kept in unused registers / shared memory of the SM
    sim::Counter restore_bytes;  ///< bytes read back from the context area on restore
    sim::Counter first_cycles;   ///< cycles CTAs stood still for first checkpoints
};

/// How the SM takes a CTA's checkpoint (the Checkpoint command, core/cta_port.h).
struct CheckpointOrder {
    bool resume = false;           ///< first checkpoint: the CTA runs on afterwards; else it leaves
    uint64_t inplace_budget = 0;   ///< bytes of unused registers + shared memory it may keep it in
    CheckpointCounters* counters = nullptr;
};

/// Checkpoint state of one CTA (travels with a saved CTA).
struct CtaCheckpoints {
    bool resume = false;             ///< the current stop is a first checkpoint
    bool leave_after = false;        ///< a leave order came during a first checkpoint
    bool dirty_only = false;         ///< the current save writes only dirty state
    uint32_t taken = 0;              ///< checkpoints so far (first ones and saves)
    uint64_t inplace_budget = 0;
    uint64_t checkpoint_at = 0;      ///< warp instructions at which to take a first checkpoint (0 = none)
    bool armed_start = false;        ///< started on an SM expecting a preemption (cases d, e)
    uint64_t next_offset = 0;        ///< where the next checkpoint goes in the CTA's context region
    uint64_t newest_addr = 0;        ///< where the newest checkpoint was written
    uint64_t newest_dram = 0;        ///< bytes of the newest checkpoint written out
    uint64_t newest_inplace = 0;     ///< bytes of the newest checkpoint kept in place
    uint64_t union_bytes = 0;        ///< bytes of every register / block in some checkpoint
    uint64_t stop_cycle = 0;
    std::vector<uint64_t> smem_dirty;  ///< blocks written since the last checkpoint
    std::vector<uint64_t> smem_saved;  ///< blocks in some checkpoint
    CheckpointCounters* counters = nullptr;
};

}  // namespace stacksim::core
