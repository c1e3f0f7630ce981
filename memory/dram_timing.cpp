// SPDX-License-Identifier: Apache-2.0
// DRAM channel configuration: validation, address mapping and the named presets.
#include "memory/dram_timing.h"

#include "memory/dram_model.h"

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
    std::string known;
    for (const auto& n : dram_schedulers().names()) known += (known.empty() ? "" : ", ") + n;
    require(dram_schedulers().contains(scheduler.name), "scheduler",
            "unknown scheduler \"" + scheduler.name + "\" (known: " + known + ")");
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
    require(refresh_mode != RefreshMode::PerBank || t.tREFI / banks > t.tRFCsb / banks, "tRFCsb",
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

const sim::Params<DramTiming>& DramTiming::params() {
    using C = DramTiming;
    static const auto p = [] {
        sim::Params<C> p;
        auto t = [&p](const char* key, uint32_t C::*m, const char* what) {
            p.add(key, m, "tCK", what).range(0, 1u << 20);
        };
        t("tRCD", &C::tRCD, "ACT to RD/WR, same bank");
        t("tCL", &C::tCL, "RD to first read data (read latency)");
        t("tWL", &C::tWL, "WR to first write data (write latency, CWL)");
        t("tRP", &C::tRP, "PRE to ACT, same bank");
        t("tRAS", &C::tRAS, "ACT to PRE, same bank");
        t("tRC", &C::tRC, "ACT to ACT, same bank");
        t("tCCD_S", &C::tCCD_S, "column command to column command, different bank groups");
        t("tCCD_L", &C::tCCD_L, "column command to column command, same bank group");
        t("tRRD_S", &C::tRRD_S, "ACT to ACT, different bank groups");
        t("tRRD_L", &C::tRRD_L, "ACT to ACT, same bank group");
        t("tFAW", &C::tFAW, "window in which at most four ACTs may issue");
        t("tWTR_S", &C::tWTR_S, "end of write data to RD, different bank groups");
        t("tWTR_L", &C::tWTR_L, "end of write data to RD, same bank group");
        t("tRTW", &C::tRTW, "RD to WR, any bank (bus turnaround included)");
        t("tRTP", &C::tRTP, "RD to PRE, same bank");
        t("tWR", &C::tWR, "end of write data to PRE, same bank (write recovery)");
        p.add("burst_length", &C::burst_length, "beats", "data transfers per column command").range(1, 64);
        t("tREFI", &C::tREFI, "interval between all-bank refreshes");
        t("tRFC", &C::tRFC, "all-bank refresh: REF to the next ACT");
        t("tRFCsb", &C::tRFCsb, "per-bank refresh: REFsb to the next ACT to that bank");
        return p;
    }();
    return p;
}

const sim::Params<DramChannelConfig>& DramChannelConfig::params() {
    using C = DramChannelConfig;
    static const auto p = [] {
        sim::Params<C> p;
        p.add("preset", &C::name, "", "timing and geometry preset the other keys modify (docs/dram.md); \"fixed\" is "
                                      "kept for old configs: it means model = \"fixed\"")
            .one_of({"fixed", "gddr5", "gddr6", "hbm2", "hbm3"})
            .when_given([](C& c) {
                if (c.name == "fixed")
                    c.model = "fixed";
                else
                    c = preset(c.name);
            });
        p.add("model", &C::model, "",
              "the channel behind each L2 slice: timed (the command-level channel of the keys below) or fixed (the "
              "simple memory of [memory] with 1/partitions of its bandwidth; the other keys are checked, not used)")
            .one_of(dram_models());
        p.add("clock_mhz", &C::clock_mhz, "MHz", "DRAM command clock (CK); every timing counts its cycles")
            .range(1.0, 100000.0);
        p.add("bus_bits", &C::bus_bits, "bits", "data bus width of the channel").range(8, 4096);
        p.add("data_rate", &C::data_rate, "transfers/CK", "data transfers per pin per command-clock cycle").range(1, 16);
        p.add("banks", &C::banks, "banks", "banks in the channel (all bank groups together)").range(1, 1024);
        p.add("bank_groups", &C::bank_groups, "groups", "bank groups; 1 disables the _L/_S distinction").range(1, 1024);
        p.add("row_bytes", &C::row_bytes, "bytes", "row (page) size of the channel").range(8, 1u << 20);
        p.add("read_queue_depth", &C::read_queue_depth, "requests", "read (and atomic) requests held by the controller")
            .range(1, 65536);
        p.add("write_queue_depth", &C::write_queue_depth, "requests", "write requests held by the controller")
            .range(1, 65536);
        p.add("page_policy", &C::page_policy, "",
              "open: the row stays open; closed: auto-precharge when no queued request hits the row")
            .names({{"open", PagePolicy::Open}, {"closed", PagePolicy::Closed}});
        p.policy("scheduler", &C::scheduler, dram_schedulers(), "command scheduler");
        p.add("write_high_watermark", &C::write_high_watermark, "requests",
              "switch to draining writes at this many queued writes")
            .range(1, 65536);
        p.add("write_low_watermark", &C::write_low_watermark, "requests", "stop draining (if reads wait) at this many")
            .range(0, 65535);
        p.add("split_command_bus", &C::split_command_bus, "",
              "separate row (ACT/PRE) and column (RD/WR) command buses, one command each per cycle (HBM)");
        p.add("xor_bank_hash", &C::xor_bank_hash, "", "XOR the bank index with the low row bits");
        p.add("latency", &C::latency, "tCK",
              "fixed controller/PHY cycles added to every response (Accel-Sim's dram_latency); 0: none")
            .range(0, 1000000);
        p.add("refresh", &C::refresh, "", "false: no refresh (isolates row-buffer timing in measurements)");
        p.add("refresh_mode", &C::refresh_mode, "",
              "all_bank: all banks every tREFI for tRFC; per_bank: one bank every tREFI / banks for tRFCsb")
            .names({{"all_bank", RefreshMode::AllBank}, {"per_bank", RefreshMode::PerBank}});
        p.table("timing", &C::timing, "DRAM timing constraints in command-clock cycles (tCK)");
        return p;
    }();
    return p;
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
