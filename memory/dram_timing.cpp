// SPDX-License-Identifier: Apache-2.0
// DRAM channel configuration: validation, address mapping and the named presets.
#include "memory/dram_timing.h"

#include <cmath>

#include "memory/dram_scheduler.h"
#include "sim/error.h"

namespace stacksim::memory {

namespace {

bool is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

void require(bool ok, const char* key, const std::string& message) {
    if (!ok) throw sim::ConfigError(std::string(key) + ": " + message);
}

}  // namespace

uint64_t DramChannelConfig::period_ps() const {
    return static_cast<uint64_t>(std::llround(1e6 / clock_mhz));
}

uint32_t DramChannelConfig::channel_of(uint64_t addr) const {
    return static_cast<uint32_t>((addr / interleave_bytes) % channels);
}

DramAddress DramChannelConfig::decode(uint64_t addr) const {
    DramAddress a;
    const uint64_t il = interleave_bytes;
    a.local = (addr / (il * channels)) * il + addr % il;
    a.column = static_cast<uint32_t>(a.local % row_bytes);
    const uint64_t chunk = a.local / row_bytes;
    a.row = chunk / banks;
    uint64_t bank = chunk % banks;
    if (xor_bank_hash) bank ^= a.row % banks;  // banks is a power of two (validated)
    a.bank = static_cast<uint32_t>(bank);
    a.bank_group = a.bank % bank_groups;
    return a;
}

void DramChannelConfig::validate() const {
    const DramTiming& t = timing;
    require(clock_mhz > 0, "clock_mhz", "must be positive");
    require(bus_bits >= 8 && bus_bits % 8 == 0, "bus_bits", "must be a positive multiple of 8");
    require(data_rate >= 1, "data_rate", "must be at least 1 transfer per clock");
    require(t.burst_length >= 1, "burst_length", "must be positive");
    require(t.burst_length % data_rate == 0, "burst_length",
            "must be a multiple of data_rate (a burst lasts whole clock cycles)");
    require(banks >= 1, "banks", "must be positive");
    require(bank_groups >= 1 && banks % bank_groups == 0, "bank_groups",
            "must be positive and divide banks");
    require(row_bytes >= burst_bytes() && row_bytes % burst_bytes() == 0, "row_bytes",
            "must be a multiple of the burst size (bus_bits / 8 * burst_length)");
    require(read_queue_depth >= 1, "read_queue_depth", "must be positive");
    require(write_queue_depth >= 1, "write_queue_depth", "must be positive");
    require(page_policy == "open" || page_policy == "closed", "page_policy",
            "must be \"open\" or \"closed\", not \"" + page_policy + "\"");
    require(dram_schedulers().contains(scheduler), "scheduler",
            "unknown scheduler \"" + scheduler + "\" (known: fcfs, frfcfs)");
    require(write_high_watermark >= 1 && write_high_watermark <= write_queue_depth,
            "write_high_watermark", "must be between 1 and write_queue_depth");
    require(write_low_watermark < write_high_watermark, "write_low_watermark",
            "must be below write_high_watermark");
    require(channels >= 1, "channels", "must be positive");
    require(interleave_bytes >= 1, "interleave_bytes", "must be positive");
    require(!xor_bank_hash || is_pow2(banks), "xor_bank_hash", "needs a power-of-two bank count");
    require(t.tRCD >= 1, "tRCD", "must be positive");
    require(t.tCL >= 1, "tCL", "must be positive");
    require(t.tRP >= 1, "tRP", "must be positive");
    require(t.tRAS >= 1, "tRAS", "must be positive");
    require(t.tRC >= t.tRAS, "tRC", "must be at least tRAS");
    require(t.tCCD_S >= 1, "tCCD_S", "must be positive");
    require(t.tCCD_L >= t.tCCD_S, "tCCD_L", "must be at least tCCD_S");
    require(t.tRRD_S >= 1, "tRRD_S", "must be positive");
    require(t.tRRD_L >= t.tRRD_S, "tRRD_L", "must be at least tRRD_S");
    require(t.tWTR_L >= t.tWTR_S, "tWTR_L", "must be at least tWTR_S");
    require(t.tRFC >= 1, "tRFC", "must be positive");
    require(t.tREFI > t.tRFC, "tREFI", "must exceed tRFC");
    require(refresh_mode == "all_bank" || refresh_mode == "per_bank", "refresh_mode",
            "must be \"all_bank\" or \"per_bank\"");
    require(refresh_mode != "per_bank" || t.tREFI / banks > t.tRFCsb / banks, "tRFCsb",
            "per-bank refreshes would overlap");
}

// HBM2 at 1 Gb/s per pin, the thesis figure (SPEC §6: 1024-bit stack x 1 Gb/s = 128 GB/s).
// Organisation (16 banks in 4 bank groups, 1 KB row, BL4, 128-bit channel) and the timings in
// nanoseconds come from DRAMsim3 configs/HBM2_8Gb_x128.ini (tCK 1 ns); here the clock is
// 500 MHz (tCK 2 ns, DDR -> 1 Gb/s), so each ns value becomes ceil(ns / 2) cycles. The result
// equals DRAMsim3 configs/HBM1_4Gb_x128.ini (tCK 2 ns) cycle for cycle: CL 7, CWL 2, tRCD 7,
// tRP 7, tRAS 17, tRFC 130, tREFI 1950, tRRD_S/L 2/3, tWTR_S/L 3/4, tFAW 15, tWR 8,
// tCCD_S/L 1/1, tRTP_L 3. tRC = tRAS + tRP. tRTW = CL + burst - CWL + 2 (bus turnaround, as
// Ramulator2's HBM models). HBM has separate row and column command buses (JESD235).
DramChannelConfig DramChannelConfig::hbm2() {
    DramChannelConfig c;
    c.name = "hbm2";
    c.clock_mhz = 500.0;
    c.bus_bits = 128;
    c.data_rate = 2;
    c.banks = 16;
    c.bank_groups = 4;
    c.row_bytes = 1024;
    c.split_command_bus = true;
    c.timing = DramTiming{};  // the defaults are the HBM2 values above
    DramTiming& t = c.timing;
    t.tRCD = 7; t.tCL = 7; t.tWL = 2; t.tRP = 7; t.tRAS = 17; t.tRC = 24;
    t.tCCD_S = 1; t.tCCD_L = 1; t.tRRD_S = 2; t.tRRD_L = 3; t.tFAW = 15;
    t.tWTR_S = 3; t.tWTR_L = 4; t.tRTP = 3; t.tWR = 8;
    t.burst_length = 4; t.tREFI = 1950; t.tRFC = 130;
    t.tRFCsb = 65;  // per-bank refresh: half of tRFC, DRAMsim3's rule (GDDR5_8Gb_x32.ini, tRFCb)
    t.tRTW = t.tCL + c.burst_cycles() - t.tWL + 2;
    return c;
}

// HBM3 pseudo-channel at 6.4 Gb/s per pin (JESD238: 16 channels x 2 pseudo-channels of 32 bits
// per stack, 4 bank groups x 4 banks per pseudo-channel, BL8, 1 KB page). CK 1.6 GHz with
// 4 transfers per CK. Timings from Ramulator2 src/dram/impl/HBM3.cpp preset "HBM3_6.4Gbps"
// (tCK 0.625 ns): nCL 23, nRCD 23, nRP 23, nRAS 55, nRC 77, nWR 26, nRTPL 10, nCWL 7,
// nCCDS/L 2/4, nRRDS/L 2/4, nWTRS/L 10/13, nFAW 48, nREFI 6240 (3.9 us); tRFC 350 ns for an
// 8 Gb die (Ramulator2's HBM3 density table) = 560 cycles. tRTW = CL + burst - CWL + 2.
DramChannelConfig DramChannelConfig::hbm3() {
    DramChannelConfig c;
    c.name = "hbm3";
    c.clock_mhz = 1600.0;
    c.bus_bits = 32;
    c.data_rate = 4;
    c.banks = 16;
    c.bank_groups = 4;
    c.row_bytes = 1024;
    c.split_command_bus = true;
    DramTiming& t = c.timing;
    t.tRCD = 23; t.tCL = 23; t.tWL = 7; t.tRP = 23; t.tRAS = 55; t.tRC = 77;
    t.tCCD_S = 2; t.tCCD_L = 4; t.tRRD_S = 2; t.tRRD_L = 4; t.tFAW = 48;
    t.tWTR_S = 10; t.tWTR_L = 13; t.tRTP = 10; t.tWR = 26;
    t.burst_length = 8; t.tREFI = 6240; t.tRFC = 560;
    t.tRFCsb = 280;  // per-bank refresh: half of tRFC (as DRAMsim3's GDDR5 tRFCb)
    t.tRTW = t.tCL + c.burst_cycles() - t.tWL + 2;
    return c;
}

// GDDR5 x32 device at 8 Gb/s per pin: DRAMsim3 configs/GDDR5_8Gb_x32.ini (tCK 0.5 ns; its
// notes: pin rate = 2 x WCK = 4 x CK, so 4 transfers per CK): 16 banks in 4 bank groups, BL8,
// CL 24, CWL 7, tRCD 24 (tRCDRD; tRCDWR 20 not modelled separately), tRP 24, tRAS 56,
// tRC = tRAS + tRP, tRFC 74, tREFI 3800, tRRD_S/L 10/10, tWTR_S/L 10/10, tFAW 40, tWR 24,
// tCCD_S/L 2/3, tRTP 2. Page 2 KB (x32: 64 column bursts of 32 B). One command bus.
DramChannelConfig DramChannelConfig::gddr5() {
    DramChannelConfig c;
    c.name = "gddr5";
    c.clock_mhz = 2000.0;
    c.bus_bits = 32;
    c.data_rate = 4;
    c.banks = 16;
    c.bank_groups = 4;
    c.row_bytes = 2048;
    c.split_command_bus = false;
    DramTiming& t = c.timing;
    t.tRCD = 24; t.tCL = 24; t.tWL = 7; t.tRP = 24; t.tRAS = 56; t.tRC = 80;
    t.tCCD_S = 2; t.tCCD_L = 3; t.tRRD_S = 10; t.tRRD_L = 10; t.tFAW = 40;
    t.tWTR_S = 10; t.tWTR_L = 10; t.tRTP = 2; t.tWR = 24;
    t.burst_length = 8; t.tREFI = 3800; t.tRFC = 74;
    t.tRFCsb = 30;  // DRAMsim3 GDDR5_8Gb_x32.ini tRFCb
    t.tRTW = t.tCL + c.burst_cycles() - t.tWL + 2;
    return c;
}

// GDDR6 x16 channel at 14 Gb/s per pin (JESD250: two independent 16-bit channels per device,
// BL16 = 32 B per access, 16 banks in 4 bank groups, 2 KB page). CK 1.75 GHz, 8 transfers per
// CK, so a burst is 2 CK. Timings from Ramulator2 src/dram/impl/GDDR6.cpp preset
// "GDDR6_2000_1350mV_double" (tCK 570 ps): nCL 24, nRCDRD 26, nRP 26, nRAS 53, nRC 79,
// nWR 26, nRTP 4, nCWL 6, nRRDS/L 7/7, nWTRS/L 9/11, nFAW 28, nRFC 210, nREFI 3333.
// Deviation: tCCD_S/L = 2/3 (a BL16 burst lasts 2 CK; Ramulator2's nCCDS/L 4/6 would cap the
// bus at half its peak). tRTW = CL + burst - CWL + 2. One command bus.
DramChannelConfig DramChannelConfig::gddr6() {
    DramChannelConfig c;
    c.name = "gddr6";
    c.clock_mhz = 1750.0;
    c.bus_bits = 16;
    c.data_rate = 8;
    c.banks = 16;
    c.bank_groups = 4;
    c.row_bytes = 2048;
    c.split_command_bus = false;
    DramTiming& t = c.timing;
    t.tRCD = 26; t.tCL = 24; t.tWL = 6; t.tRP = 26; t.tRAS = 53; t.tRC = 79;
    t.tCCD_S = 2; t.tCCD_L = 3; t.tRRD_S = 7; t.tRRD_L = 7; t.tFAW = 28;
    t.tWTR_S = 9; t.tWTR_L = 11; t.tRTP = 4; t.tWR = 26;
    t.burst_length = 16; t.tREFI = 3333; t.tRFC = 210;
    t.tRFCsb = 105;  // per-bank refresh: half of tRFC (as DRAMsim3's GDDR5 tRFCb)
    t.tRTW = t.tCL + c.burst_cycles() - t.tWL + 2;
    return c;
}

DramChannelConfig DramChannelConfig::preset(const std::string& name) {
    if (name == "hbm2") return hbm2();
    if (name == "hbm3") return hbm3();
    if (name == "gddr5") return gddr5();
    if (name == "gddr6") return gddr6();
    throw sim::ConfigError("preset: unknown DRAM preset \"" + name +
                           "\" (known: gddr5, gddr6, hbm2, hbm3)");
}

}  // namespace stacksim::memory
