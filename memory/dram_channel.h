// SPDX-License-Identifier: Apache-2.0
// One DRAM channel controller with bank, rank and bus timing behind a TLM target socket.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>

#include "memory/dram_bank.h"
#include "memory/dram_scheduler.h"
#include "memory/dram_timing.h"
#include "sim/clock_domain.h"
#include "sim/multi_target_port.h"
#include "sim/stats.h"

namespace stacksim::memory {

/// A DRAM channel: read and write queues, a command scheduler, per-bank state, rank-level
/// constraints (tRRD, tFAW, tCCD_S/L, tWTR, tRTW), data-bus occupancy, all-bank refresh and
/// an open or closed page policy. Ticked by its own clock domain (the DRAM command clock) and
/// asleep until the next command can legally issue, the next response is due or the next
/// refresh falls due; an idle channel is never ticked (missed refreshes are applied when it
/// wakes). Protocol as SimpleMemory (docs/protocol.md): BEGIN_REQ is answered
/// TLM_UPDATED/END_REQ while the request's queue (read or write) has room and no request of
/// its kind is withheld, otherwise TLM_ACCEPTED and END_REQ follows on the backward path;
/// every request gets BEGIN_RESP when its last data burst completes. Atomics are served as
/// reads. See docs/dram.md.
class DramChannel : public sc_core::sc_module, public sim::Clocked {
public:
    sim::MultiTargetPort upstream;

    /// `cfg` is validated here (ConfigError). `dram_clock` must tick at cfg.clock_mhz.
    DramChannel(sc_core::sc_module_name name, const DramChannelConfig& cfg,
                sim::ClockDomain& dram_clock, sim::StatRegistry& stats);

    bool tick(uint64_t cycle) override;
    const DramChannelConfig& config() const { return m_cfg; }
    /// Extra DRAM cycles between a request's last data burst and its response (capacity
    /// compression: metadata read, decompression), asked once per request; unset = none.
    void set_extra_latency(std::function<uint32_t(const tlm::tlm_generic_payload&)> f) { m_extra_latency = std::move(f); }

private:
    static constexpr int64_t kLongAgo = -(int64_t{1} << 40);
    struct Request {
        tlm::tlm_generic_payload* payload;
        int port;
        uint64_t accepted;    ///< DRAM cycle of acceptance
        DramAddress addr;
        uint32_t bursts_left;
        bool write;
        bool classified;      ///< counted as row hit / miss / conflict already
    };
    struct Completion {
        uint64_t done;        ///< DRAM cycle the last data beat ends
        int port;
        tlm::tlm_generic_payload* payload;
        uint64_t accepted;
        bool write;
    };

    /// A BEGIN_REQ arrived from initiator `port`: true when accepted, false when withheld.
    bool request(int port, tlm::tlm_generic_payload& p);
    void accept(int port, tlm::tlm_generic_payload& p, uint64_t now);
    void accept_waiting();
    void deliver(uint64_t now);
    void refresh_until(uint64_t now);
    /// Every bank closed and able to activate (so to refresh) when its next refresh is due:
    /// `cycle` for the next bank to refresh, `step` cycles later for each bank after it.
    bool banks_free_by(uint64_t cycle, uint64_t step) const;
    void refresh_at(uint64_t due);
    void update_mode();
    /// Each queued request's next command, oldest first, in a buffer reused by every call (valid
    /// until the next call): built two or three times per busy cycle, it must not allocate.
    const std::vector<DramCandidate>& candidates(uint64_t now, bool row_bus_used, bool col_bus_used) const;
    uint64_t activate_ready(uint32_t bank) const;
    uint64_t column_ready(bool write, uint32_t bank) const;
    void issue(const DramCandidate& c, uint64_t now);
    bool row_wanted(uint32_t bank) const;
    std::vector<Request>& active_queue() { return m_writing ? m_writes : m_reads; }
    const std::vector<Request>& active_queue() const { return m_writing ? m_writes : m_reads; }

    DramChannelConfig m_cfg;
    sim::ClockDomain& m_clock;
    std::function<uint32_t(const tlm::tlm_generic_payload&)> m_extra_latency;
    std::unique_ptr<DramScheduler> m_sched;
    uint32_t m_burst;  ///< burst_cycles()
    bool m_closed_page;
    std::vector<DramBank> m_banks;
    std::vector<uint32_t> m_streak;  ///< column commands to each bank's open row since ACT
    // candidates()'s reused buffers: the result, and per bank whether a queued request hits its
    // open row and the legal cycles of its commands, computed once per call (0: not yet).
    mutable std::vector<DramCandidate> m_cands;
    mutable std::vector<uint8_t> m_bank_hit;
    mutable std::vector<uint64_t> m_bank_ready;  ///< [bank * 3 + 0 read, 1 write, 2 activate] + 1

    std::vector<Request> m_reads, m_writes;  ///< accepted, in arrival order
    uint32_t m_waiting_reads = 0, m_waiting_writes = 0;  ///< withheld requests (END_REQ owed)
    std::deque<Completion> m_done;  ///< sorted by `done`
    bool m_writing = false;
    uint64_t m_next_refresh;
    uint32_t m_refresh_bank = 0;  ///< per-bank refresh: the next bank to refresh
    uint64_t refresh_interval() const;

    // Rank-level history (signed so "never" sits far in the past).
    int64_t m_last_act = kLongAgo;
    std::vector<int64_t> m_last_act_group;
    std::array<int64_t, 4> m_faw{kLongAgo, kLongAgo, kLongAgo, kLongAgo};
    size_t m_faw_pos = 0;  ///< slot of the oldest of the last four ACTs
    int64_t m_last_cas = kLongAgo;
    std::vector<int64_t> m_last_cas_group;
    int64_t m_last_rd = kLongAgo;
    int64_t m_last_wr_end = kLongAgo;  ///< end of the last write burst
    std::vector<int64_t> m_last_wr_end_group;
    uint64_t m_bus_free = 0;  ///< first cycle the data bus is free

    sim::Counter m_stat_reads, m_stat_writes, m_stat_atomics, m_stat_bytes;
    sim::Counter m_row_hits, m_row_misses, m_row_conflicts;
    sim::Counter m_activates, m_precharges, m_refreshes, m_refresh_cycles;
    sim::Counter m_bus_busy, m_write_drains;
    std::vector<sim::Counter> m_bank_activates;
    sim::Average m_read_latency;
    sim::Histogram m_read_latency_hist{8, 64};
};

}  // namespace stacksim::memory
