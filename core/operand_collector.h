// SPDX-License-Identifier: Apache-2.0
// Operand collector: banked register file reads that delay dispatch on bank conflicts.
#pragma once
#include <cstdint>
#include <vector>

#include "core/instruction.h"

namespace stacksim::core {

/// `units` collector units gather the source operands of issued instructions from a register
/// file of `banks` single-ported banks (register r of warp w lives in bank (r + w) % banks).
/// Each bank serves one read per cycle, so two sources in one bank, or a bank busy with another
/// instruction's read, cost extra cycles before the instruction can dispatch.
class OperandCollector {
public:
    OperandCollector(uint32_t banks, uint32_t units);
    /// True when a collector unit is free at `cycle`.
    bool unit_free(uint64_t cycle) const;
    /// Earliest cycle a unit frees up.
    uint64_t next_unit_free() const;
    /// Takes a unit and reads the sources of `inst` (guard predicate excluded) for `warp`,
    /// starting at `cycle`; returns the cycle the operands are all read (>= cycle + 1).
    uint64_t collect(const Instruction& inst, uint32_t warp, uint64_t cycle);
    uint64_t conflict_cycles() const { return m_conflicts; }

private:
    uint32_t m_banks;
    std::vector<uint64_t> m_bank_free;
    std::vector<uint64_t> m_unit_free;
    uint64_t m_conflicts = 0;
};

}  // namespace stacksim::core
