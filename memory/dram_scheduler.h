// SPDX-License-Identifier: Apache-2.0
// Interface of DRAM command-scheduling policies and their registry.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "sim/registry.h"

namespace stacksim::memory {

/// DRAM commands the controller issues on behalf of queued requests.
enum class DramCommand : uint8_t { Activate, Precharge, Read, Write };

/// The next command one queued request needs, and when it becomes legal.
struct DramCandidate {
    size_t request = 0;       ///< position in the active queue (0 = oldest)
    DramCommand command = DramCommand::Activate;
    uint32_t bank = 0;
    uint64_t ready = 0;       ///< earliest legal cycle (DRAM cycles)
    bool row_hit = false;     ///< a RD/WR to the row already open in its bank
    bool closes_hit_row = false;  ///< a PRE closing a row other queued requests still hit
    uint32_t hit_streak = 0;  ///< column commands to the bank's open row since its ACT
};

/// Picks which candidate issues. Candidates arrive in age order (oldest first).
class DramScheduler {
public:
    static constexpr size_t none = std::numeric_limits<size_t>::max();
    static constexpr uint64_t never = std::numeric_limits<uint64_t>::max();
    virtual ~DramScheduler() = default;
    /// Index into `c` of the command to issue at cycle `now`, or `none`.
    virtual size_t choose(const std::vector<DramCandidate>& c, uint64_t now) const = 0;
    /// Earliest cycle at which choose() would pick something if nothing else changes
    /// (`never` if no candidate can ever be picked). The controller sleeps until then.
    virtual uint64_t next_ready(const std::vector<DramCandidate>& c) const = 0;
};

using DramSchedulerRegistry = sim::Registry<DramScheduler>;
/// "fcfs": the oldest request's next command only (strict arrival order).
/// "frfcfs": ready row hits first (oldest first), then the oldest ready command; rows with
/// pending hits are not closed. With a cap, once a bank has served `cap` column commands since
/// its ACT, an older request to another row may close it and younger hits wait behind it.
DramSchedulerRegistry& dram_schedulers();

}  // namespace stacksim::memory
