// SPDX-License-Identifier: Apache-2.0
// A kernel given as per-warp instruction traces (Accel-Sim .traceg): timing-only execution.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "core/instruction.h"

namespace stacksim::core {

constexpr uint32_t kNoAddresses = 0xFFFFFFFF;

/// One dynamic warp instruction of a trace.
struct TraceInstruction {
    const Instruction* inst = nullptr;  ///< static form: unit(), control(), reads/writes, space
    uint32_t pc = 0;                    ///< PC as traced (bytes), for logs
    uint32_t active_mask = 0;           ///< lanes that execute it
    uint32_t addr_index = kNoAddresses; ///< first of popcount(active_mask) addresses in
                                        ///< WarpTrace::addresses (lane order), memory only
    uint8_t access_bytes = 0;           ///< bytes per lane for memory instructions
    bool is_load = false, is_store = false, is_atomic = false;
};

/// The instruction stream of one warp of one CTA.
struct WarpTrace {
    std::vector<TraceInstruction> insts;
    std::vector<uint64_t> addresses;
};

/// One CTA of a traced kernel.
struct CtaTrace {
    std::array<uint32_t, 3> id{};
    std::vector<WarpTrace> warps;  ///< index = warp id within the CTA
};

/// A traced kernel launch. `static_insts` owns the Instruction objects the traces point to
/// (a deque, so pointers stay valid as it grows).
struct TraceKernel {
    std::string name;
    std::string file;
    std::array<uint32_t, 3> grid{1, 1, 1};
    std::array<uint32_t, 3> block{1, 1, 1};
    uint32_t shared_bytes = 0;
    uint32_t regs_per_thread = 0;   ///< from the trace header (nregs), 0 if absent
    uint32_t binary_version = 0;    ///< e.g. 61, 70, 75, 80, 86
    uint32_t num_regs = 0;          ///< register ids used (scoreboard size)
    std::deque<Instruction> static_insts;
    std::vector<CtaTrace> ctas;     ///< in trace order; CTA i is dispatched i-th
    bool idempotent = false;        ///< no atomics and no stored line is also loaded (flushable)
};

}  // namespace stacksim::core
