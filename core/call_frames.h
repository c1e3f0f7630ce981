// SPDX-License-Identifier: Apache-2.0
// Per-warp state of device-function calls: the frame stack, the per-thread parameter memory
// (.param arguments and return values) and the registers saved for recursive calls.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

namespace stacksim::core {

/// One call in progress.
struct CallFrame {
    uint32_t function = 0;     ///< module function id (CallTable::functions)
    uint32_t caller_base = 0;  ///< parameter-frame base of the caller
    uint32_t lanes = 0;        ///< lanes that entered the call
    uint32_t ret_src = 0;      ///< absolute offset of the callee's return value
    uint32_t ret_dest = 0;     ///< absolute offset of the caller's return .param variable
    uint32_t ret_bytes = 0;    ///< bytes copied back when the call returns (0: none)
    uint16_t reg_first = 0, reg_count = 0;  ///< the callee's registers (restored if saved)
    uint64_t saved_at = ~uint64_t{0};  ///< CallFrames::saved_regs index (recursion), or none
    uint64_t local_saved_at = ~uint64_t{0};  ///< CallFrames::saved_local index (recursion), or none
    uint32_t local_offset = 0, local_bytes = 0;  ///< the callee's .local data (restored if saved)
};

/// Device-function calls in progress in one warp. Parameter memory holds, per thread, the
/// frames of the active calls one after another from offset 0 (the kernel's own call-site
/// variables), stored byte-interleaved by lane: byte `o` of lane `l` at mem[o * 32 + l].
struct CallFrames {
    static constexpr unsigned kMaxDepth = 1024;  ///< deeper recursion stops the run
    std::vector<CallFrame> frames;
    std::vector<uint8_t> mem;
    uint32_t base = 0;                  ///< parameter-frame base of the running function
    std::vector<uint64_t> saved_regs;   ///< register rows of recursively entered functions
    std::vector<uint32_t> saved_local;  ///< .local words of recursively entered functions
    std::vector<uint16_t> active;       ///< per module function id: calls in progress

    void read(uint64_t off, unsigned lane, void* dst, unsigned bytes) const {
        auto* d = static_cast<uint8_t*>(dst);
        for (unsigned k = 0; k < bytes; ++k) {
            const uint64_t i = (off + k) * 32 + lane;
            d[k] = i < mem.size() ? mem[i] : 0;
        }
    }
    void write(uint64_t off, unsigned lane, const void* src, unsigned bytes) {
        if ((off + bytes) * 32 > mem.size()) mem.resize((off + bytes) * 32, 0);
        const auto* s = static_cast<const uint8_t*>(src);
        for (unsigned k = 0; k < bytes; ++k) mem[(off + k) * 32 + lane] = s[k];
    }
};

}  // namespace stacksim::core
