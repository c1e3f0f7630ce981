// SPDX-License-Identifier: Apache-2.0
// Device functions in the kernel IR: the functions linked into a kernel and the call sites
// that reach them (PTX .func, call, ret; core/call_frames.h executes them).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/instruction.h"

namespace stacksim::core {

/// Generic address of module function `index` (what `mov.u64 %rd, func;` and a function
/// pointer in a .global initialiser hold): a window no data address uses.
constexpr uint64_t kFunctionAddressBase = 0xFD00'0000'0000'0000ull;
constexpr uint64_t kFunctionAddressStride = 16;
inline uint64_t function_address(uint32_t index) { return kFunctionAddressBase + uint64_t{index + 1} * kFunctionAddressStride; }

/// Functions the simulator implements itself (CUDA's device runtime).
enum class Builtin : uint8_t { None, Vprintf, AssertFail };

/// One function of the module as linked into one kernel.
struct FunctionInfo {
    std::string name;
    Builtin builtin = Builtin::None;
    uint32_t entry = kNoTarget;  ///< its first instruction in Kernel::code (kNoTarget: not linked)
    uint16_t reg_first = 0, reg_count = 0;  ///< its registers in the kernel's register file
    /// Per-thread parameter frame: formal parameters and return value at the offsets below,
    /// then the .param variables of its own call sites.
    uint32_t frame_bytes = 0;
    std::vector<uint32_t> param_offset, param_bytes;
    uint32_t ret_offset = 0, ret_bytes = 0;
    uint32_t local_offset = 0, local_bytes = 0;  ///< its .local data in each thread's local memory
    uint32_t line = 0;  ///< PTX line of the .func, for errors
};

/// The functions of a module linked into one kernel, indexed by module function id.
struct CallTable {
    std::vector<FunctionInfo> functions;
    uint32_t kernel_frame_bytes = 0;  ///< the kernel's own call-site .param variables
};

/// What a `call` instruction passes: caller-frame offsets of its argument and return .param
/// variables (copied into and out of the callee's frame).
struct CallSite {
    std::shared_ptr<const CallTable> table;  ///< set when the kernel is linked
    int32_t callee = -1;                     ///< module function id; -1: indirect (src[0])
    std::vector<std::pair<uint32_t, uint32_t>> args;  ///< (offset in the caller's frame, bytes)
    uint32_t ret_offset = 0, ret_bytes = 0;           ///< ret_bytes 0: no return value
    uint32_t caller_frame_bytes = 0;  ///< frame size of the calling function (or kernel)
    std::string prototype;  ///< indirect calls: the .callprototype's signature, for errors
};

}  // namespace stacksim::core
