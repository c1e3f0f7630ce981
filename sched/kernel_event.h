// SPDX-License-Identifier: Apache-2.0
// What the kernel management unit reports to its listeners (the preemption controller).
#pragma once
#include <cstdint>

#include "core/kernel_launch.h"
#include "sim/message_port.h"

namespace stacksim::sched {

enum class KernelEventKind : uint8_t {
    LaunchCalled,  ///< the host made a launch call for `kernel` (it arrives after the launch latency)
    Preempted,     ///< the kernel scheduler preempted `victim` for `kernel`, which has just started
};

/// One kernel-management event (sent on KernelManagementUnit::events).
struct KernelEvent {
    KernelEventKind kind = KernelEventKind::LaunchCalled;
    core::KernelLaunch* kernel = nullptr;
    core::KernelLaunch* victim = nullptr;  ///< Preempted only
};

using KernelEventPort = sim::MessagePort<KernelEvent>;

}  // namespace stacksim::sched
