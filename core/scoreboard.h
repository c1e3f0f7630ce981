// SPDX-License-Identifier: Apache-2.0
// Per-warp scoreboard: registers with a write in flight.
#pragma once
#include <cstdint>
#include <vector>

#include "core/instruction.h"

namespace stacksim::core {

/// Why an instruction cannot issue, as far as the scoreboard is concerned.
enum class Hazard : uint8_t { None, Execution, Memory };

/// Records each register with a pending write (SPEC §1): an instruction may not issue while
/// one of its sources (RAW) or destinations (WAW) is pending. A pending write from a load
/// counts as a memory dependency, any other as an execution dependency.
class Scoreboard {
public:
    void reset(uint32_t num_regs);
    /// Marks the destinations of `inst` pending; `from_memory` for loads and atomics.
    void reserve(const Instruction& inst, bool from_memory);
    /// Clears the pending write of register `reg`.
    void release(uint16_t reg);
    /// The hazard blocking `inst`, Hazard::None if it may issue.
    Hazard check(const Instruction& inst) const;
    bool pending(uint16_t reg) const { return m_pending[reg] != 0; }
    uint32_t pending_count() const { return m_count; }

private:
    std::vector<uint8_t> m_pending;  ///< 0 none, 1 execution, 2 memory
    uint32_t m_count = 0;
};

}  // namespace stacksim::core
