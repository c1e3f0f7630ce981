// SPDX-License-Identifier: Apache-2.0
// One DRAM bank's state machine: open row and the earliest legal cycle of each command.
#pragma once
#include <cstdint>

#include "memory/dram_timing.h"

namespace stacksim::memory {

/// A bank: closed or holding one open row, plus the earliest cycle each command may issue
/// given the bank-local constraints (tRCD, tRAS, tRC, tRP, tRTP, tWR, tRFC). Rank-level
/// constraints (tRRD, tFAW, tCCD, bus turnaround) live in the channel. Cycles are DRAM
/// command-clock cycles.
class DramBank {
public:
    /// `burst_cycles`: cycles one burst occupies the data bus (for write recovery).
    DramBank(const DramTiming& timing, uint32_t burst_cycles)
        : m_t(&timing), m_burst(burst_cycles) {}

    bool is_open() const { return m_open; }
    /// The open row (meaningless when closed).
    uint64_t open_row() const { return m_row; }
    bool hits(uint64_t row) const { return m_open && m_row == row; }

    /// Earliest ACT: tRP after PRE, tRC after ACT, tRFC after REF.
    uint64_t earliest_activate() const { return m_act_ok; }
    /// Earliest RD or WR to the open row: tRCD after ACT.
    uint64_t earliest_column() const { return m_col_ok; }
    /// Earliest PRE: tRAS after ACT, tRTP after RD, tWL + burst + tWR after WR.
    uint64_t earliest_precharge() const { return m_pre_ok; }

    void activate(uint64_t cycle, uint64_t row);
    void read(uint64_t cycle);
    void write(uint64_t cycle);
    void precharge(uint64_t cycle);
    /// Refresh issued at `cycle` (the bank must be closed): ACT waits `duration` cycles
    /// (tRFC for an all-bank refresh, tRFCsb for a per-bank one).
    void refresh(uint64_t cycle, uint64_t duration);

private:
    const DramTiming* m_t;
    uint32_t m_burst;
    bool m_open = false;
    uint64_t m_row = 0;
    uint64_t m_act_ok = 0;
    uint64_t m_col_ok = 0;
    uint64_t m_pre_ok = 0;
};

}  // namespace stacksim::memory
