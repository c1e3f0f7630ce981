// SPDX-License-Identifier: Apache-2.0
// A CUDA-like stream: an in-order queue of kernel launches and event records/waits.
#pragma once
#include <cstdint>
#include <deque>

namespace stacksim::core {
struct KernelLaunch;
}

namespace stacksim::host {

/// One command of a stream.
struct StreamCommand {
    enum class Kind : uint8_t { Kernel, RecordEvent, WaitEvent } kind = Kind::Kernel;
    core::KernelLaunch* launch = nullptr;  ///< Kernel
    uint64_t arrival_ps = 0;               ///< Kernel: when the launch reaches the GPU's kernel pool
    uint64_t call_cycle = 0;               ///< Kernel: the host's launch call
    uint32_t event = 0;                    ///< RecordEvent / WaitEvent
};

/// Commands run in order: a kernel is handed to the GPU when it has arrived and everything
/// before it in the stream has finished; an event is recorded when the stream reaches it; a
/// wait holds the stream until its event has been recorded.
struct Stream {
    std::deque<StreamCommand> commands;
    bool kernel_running = false;  ///< the front command is a kernel on the GPU
    bool idle() const { return commands.empty(); }
};

}  // namespace stacksim::host
