// SPDX-License-Identifier: Apache-2.0
// What the host remembers of each kernel launch (summary, stats, timeline).
#pragma once
#include <array>
#include <cstdint>
#include <string>

namespace stacksim::host {

/// One finished kernel.
struct KernelRecord {
    std::string name;
    uint32_t app = 0;             ///< application index
    uint32_t stream = 0;          ///< stream of its application (0: the default stream)
    int priority = 0;
    uint64_t call_cycle = 0;      ///< the host's launch call
    uint64_t start_cycle = 0;     ///< its CTAs started to be dispatched
    uint64_t end_cycle = 0;       ///< its last CTA finished
    uint64_t ctas = 0;
    uint64_t warp_instructions = 0;
    uint64_t ctas_completed = 0;  ///< CTAs that ran to completion
    uint64_t cta_cycles = 0;      ///< sum of the completed CTAs' resident cycles
    std::array<uint64_t, 8> issue_outcomes{};  ///< scheduler slots by outcome (core::IssueOutcome)
};

}  // namespace stacksim::host
