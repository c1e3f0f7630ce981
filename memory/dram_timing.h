// SPDX-License-Identifier: Apache-2.0
// DRAM timing parameters, channel configuration, address mapping and the named presets.
#pragma once
#include <cstdint>
#include <string>

#include "sim/param.h"
#include "sim/policy_catalog.h"

namespace stacksim::memory {

/// DRAM timing constraints, all in DRAM command-clock cycles (tCK) unless noted.
struct DramTiming {
    uint32_t tRCD = 7;    ///< ACT -> RD/WR, same bank
    uint32_t tCL = 7;     ///< RD -> first read data (read latency)
    uint32_t tWL = 2;     ///< WR -> first write data (write latency, CWL)
    uint32_t tRP = 7;     ///< PRE -> ACT, same bank
    uint32_t tRAS = 17;   ///< ACT -> PRE, same bank
    uint32_t tRC = 24;    ///< ACT -> ACT, same bank
    uint32_t tCCD_S = 1;  ///< column command -> column command, different bank groups
    uint32_t tCCD_L = 1;  ///< column command -> column command, same bank group
    uint32_t tRRD_S = 2;  ///< ACT -> ACT, different bank groups
    uint32_t tRRD_L = 3;  ///< ACT -> ACT, same bank group
    uint32_t tFAW = 15;   ///< window in which at most four ACTs may issue
    uint32_t tWTR_S = 3;  ///< end of write data -> RD, different bank groups
    uint32_t tWTR_L = 4;  ///< end of write data -> RD, same bank group
    uint32_t tRTW = 9;    ///< RD -> WR, any bank (bus turnaround included)
    uint32_t tRTP = 3;    ///< RD -> PRE, same bank
    uint32_t tWR = 8;     ///< end of write data -> PRE, same bank (write recovery)
    uint32_t burst_length = 4;  ///< data transfers (beats) per column command
    uint32_t tREFI = 1950;      ///< interval between all-bank refreshes
    uint32_t tRFC = 130;        ///< all-bank refresh: REF -> next ACT
    uint32_t tRFCsb = 65;       ///< per-bank refresh: REFsb -> next ACT to that bank

    /// The declared parameters ([memory.dram.timing]).
    static const sim::Params<DramTiming>& params();
};

/// What the controller does with a row after its last queued hit.
enum class PagePolicy : uint8_t { Open, Closed };
/// How refresh is done.
enum class RefreshMode : uint8_t { AllBank, PerBank };

/// Where a channel-local address lands in the channel.
struct DramAddress {
    uint64_t local = 0;       ///< channel-local byte address
    uint32_t bank = 0;        ///< flat bank index, 0 .. banks-1
    uint32_t bank_group = 0;  ///< bank % bank_groups
    uint64_t row = 0;         ///< row within the bank
    uint32_t column = 0;      ///< byte offset within the row
};

/// One DRAM channel: its clock, data bus, organisation, controller and address mapping.
///
/// Address layout (see docs/dram.md): the memory system interleaves `interleave_bytes`-sized
/// chunks round robin over `channels` channels; a channel keeps the chunks it owns packed:
/// local = (addr / (interleave_bytes * channels)) * interleave_bytes + addr % interleave_bytes.
/// Within the channel, consecutive local bytes fill one row first (column = local % row_bytes),
/// then move to the next bank (bank = (local / row_bytes) % banks), then to the next row
/// (row = local / (row_bytes * banks)). Bank b belongs to bank group b % bank_groups, so
/// consecutive rows-worth of data alternate bank groups. With `xor_bank_hash` the bank index
/// is XORed with the low row bits (permutation-based interleaving, Zhang et al., MICRO 2000).
struct DramChannelConfig {
    std::string name = "hbm2";     ///< preset name, informational ("fixed": the old spelling of model = "fixed")
    std::string model = "timed";   ///< a dram_models() name (memory/dram_model.h)
    double clock_mhz = 500.0;      ///< DRAM command clock (CK), MHz; all timings count its cycles
    uint32_t bus_bits = 128;       ///< data bus width of the channel, bits
    /// Data transfers per pin per command-clock cycle: 2 for DDR (HBM), 4 when the data clock
    /// runs at twice CK with DDR data (GDDR5 WCK = 2 x CK, HBM3), 8 for GDDR6 (16 Gb/s at 2 GHz CK).
    uint32_t data_rate = 2;
    uint32_t banks = 16;           ///< banks in the channel (all bank groups together)
    uint32_t bank_groups = 4;      ///< bank groups; 1 disables the _L/_S distinction
    uint32_t row_bytes = 1024;     ///< row (page) size of the channel, bytes
    uint32_t read_queue_depth = 32;   ///< read (and atomic) requests held by the controller
    uint32_t write_queue_depth = 32;  ///< write requests held by the controller
    /// Open: the row stays open; Closed: auto-precharge when no queued request hits the row.
    PagePolicy page_policy = PagePolicy::Open;
    sim::PolicySpec scheduler{"frfcfs"};  ///< a dram_schedulers() policy and its parameters
    uint32_t write_high_watermark = 24;  ///< switch to draining writes at this many queued writes
    uint32_t write_low_watermark = 8;    ///< stop draining (if reads wait) at this many
    bool split_command_bus = true; ///< separate row (ACT/PRE) and column (RD/WR) command buses,
                                   ///< one command each per cycle (HBM); false: one command/cycle
    uint32_t channels = 1;         ///< channels in the whole memory system (address interleave)
    uint32_t interleave_bytes = 256;  ///< channel interleave granularity, bytes
    bool xor_bank_hash = false;    ///< XOR the bank index with the low row bits
    /// Fixed controller/PHY pipeline cycles (tCK) added to every response (Accel-Sim's
    /// dram_latency); 0: a response leaves with its last data beat.
    uint32_t latency = 0;
    bool refresh = true;           ///< false: no refresh (isolates row-buffer timing in measurements)
    /// AllBank: every tREFI all banks close and wait tRFC; PerBank: every tREFI / banks one
    /// bank (round robin) closes and waits tRFCsb while the others keep working.
    RefreshMode refresh_mode = RefreshMode::AllBank;
    DramTiming timing;

    /// Bytes moved by one column command: bus_bits / 8 * burst_length.
    uint32_t burst_bytes() const { return bus_bits / 8 * timing.burst_length; }
    /// Cycles a burst occupies the data bus: burst_length / data_rate.
    uint32_t burst_cycles() const { return timing.burst_length / data_rate; }
    /// Peak data bandwidth of this channel, GB/s (10^9 bytes/s).
    double peak_bandwidth_gbps() const {
        return clock_mhz * 1e6 * data_rate * (bus_bits / 8.0) / 1e9;
    }
    /// Data rate per pin, Gb/s.
    double pin_rate_gbps() const { return clock_mhz * data_rate / 1e3; }
    /// Clock period rounded to whole picoseconds, for sim::ClockDomain.
    uint64_t period_ps() const;
    /// The channel that owns system address `addr`.
    uint32_t channel_of(uint64_t addr) const;
    /// Channel-local address, bank, bank group, row and column of system address `addr`.
    DramAddress decode(uint64_t addr) const;

    /// The declared parameters ([memory.dram]); `preset` (the member `name`) first replaces
    /// every value with the named preset's, then the other keys apply on top.
    static const sim::Params<DramChannelConfig>& params();
    /// Throws sim::ConfigError("key: message") on an invalid value.
    void validate() const;

    /// HBM2 channel at 1 Gb/s per pin (the thesis figure): 128-bit, 500 MHz DDR, 16 GB/s;
    /// 8 channels = one 1024-bit stack = 128 GB/s.
    static DramChannelConfig hbm2();
    /// HBM3 pseudo-channel at 6.4 Gb/s per pin: 32-bit, 1.6 GHz CK, 25.6 GB/s; 32 per stack.
    static DramChannelConfig hbm3();
    /// GDDR5 x32 device at 8 Gb/s per pin: 2 GHz CK, WCK = 2 x CK, 32 GB/s.
    static DramChannelConfig gddr5();
    /// GDDR6 x16 channel at 14 Gb/s per pin: 1.75 GHz CK, 28 GB/s.
    static DramChannelConfig gddr6();
    /// A preset by name ("hbm2", "hbm3", "gddr5", "gddr6"); throws ConfigError otherwise.
    static DramChannelConfig preset(const std::string& name);
};

}  // namespace stacksim::memory
