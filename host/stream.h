// SPDX-License-Identifier: Apache-2.0
// A CUDA-like stream: an in-order queue of kernel launches, asynchronous copies and event
// records/waits.
#pragma once
#include <cstdint>
#include <deque>

namespace stacksim::core {
struct KernelLaunch;
}

namespace stacksim::host {

/// One command of a stream.
struct StreamCommand {
    enum class Kind : uint8_t { Kernel, RecordEvent, WaitEvent, Copy } kind = Kind::Kernel;
    core::KernelLaunch* launch = nullptr;  ///< Kernel
    uint64_t arrival_ps = 0;               ///< Kernel: when the launch reaches the GPU's kernel pool
    uint64_t call_cycle = 0;               ///< Kernel: the host's launch call
    uint32_t event = 0;                    ///< RecordEvent / WaitEvent
    uint32_t copy = 0;                     ///< Copy: its slot in the host program's copies
};

/// Commands run in order: a kernel is handed to the GPU when it has arrived and everything
/// before it in the stream has finished; a copy starts when the stream reaches it and holds
/// the stream until it completes; an event is recorded when the stream reaches it; a wait
/// holds the stream until its event has been recorded.
struct Stream {
    std::deque<StreamCommand> commands;
    bool front_busy = false;  ///< the front command is a kernel on the GPU or a copy in flight
    bool idle() const { return commands.empty(); }
};

}  // namespace stacksim::host
