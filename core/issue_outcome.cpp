// SPDX-License-Identifier: Apache-2.0
// Issue-slot outcomes: their stat names.
#include "core/issue_outcome.h"

namespace stacksim::core {

const char* outcome_name(IssueOutcome o) {
    switch (o) {
    case IssueOutcome::Issued: return "issued";
    case IssueOutcome::PipelineBusy: return "stall_pipeline_busy";
    case IssueOutcome::Fetch: return "stall_fetch";
    case IssueOutcome::MemoryThrottle: return "stall_memory_throttle";
    case IssueOutcome::MemoryDependency: return "stall_memory_dependency";
    case IssueOutcome::Synchronization: return "stall_synchronization";
    case IssueOutcome::ExecutionDependency: return "stall_execution_dependency";
    case IssueOutcome::Idle: return "stall_idle";
    case IssueOutcome::Count: break;
    }
    return "?";
}

}  // namespace stacksim::core
