// SPDX-License-Identifier: Apache-2.0
// Issue-slot outcomes: what each warp scheduler did with each cycle.
#pragma once
#include <cstddef>
#include <cstdint>
#include <tuple>

#include "core/kernel_launch.h"

namespace stacksim::core {

/// Issue-slot outcomes counted per scheduler and cycle (textbook §3.4.2 stall reasons).
enum class IssueOutcome : uint8_t {
    Issued, PipelineBusy, Fetch, MemoryThrottle, MemoryDependency, Synchronization,
    ExecutionDependency, Idle, Count
};
static_assert(static_cast<size_t>(IssueOutcome::Count) == std::tuple_size<decltype(KernelTally::outcomes)>::value,
              "KernelTally::outcomes has one counter per issue outcome");
/// The stall reason of a watched warp that was ready but left out of its scheduler's order (a
/// two-level scheduler's pending warp); not an IssueOutcome (no statistic counts it).
constexpr uint8_t kStallPending = 0xF0;
/// Stat name of an outcome ("issued", "stall_pipeline_busy", ...).
const char* outcome_name(IssueOutcome o);

}  // namespace stacksim::core
