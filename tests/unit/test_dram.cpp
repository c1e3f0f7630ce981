// SPDX-License-Identifier: Apache-2.0
// DRAM channel timing specifications: one scripted requester and one channel per test process.
#include <catch2/catch.hpp>

#include "memory/dram_scheduler.h"
#include "tests/unit/policy_spec.h"

#include "tests/unit/scripted_requester.h"

#include <algorithm>
#include <map>
#include <systemc>
#include <tlm_utils/simple_initiator_socket.h>

#include "memory/dram_bank.h"
#include "memory/dram_channel.h"
#include "memory/dram_timing.h"
#include "sim/error.h"
#include "sim/payload_pool.h"

using namespace stacksim;
using memory::DramChannelConfig;

namespace {

/// One channel driven by one requester; both clocks run at the DRAM command clock.
struct Bench {
    sim::StatRegistry stats;
    DramChannelConfig cfg;
    sim::ClockDomain dram_clk;
    sim::ClockDomain req_clk;
    memory::DramChannel dram;
    test::ScriptedRequester req{"req", req_clk};
    explicit Bench(const DramChannelConfig& c)
        : cfg(c), dram_clk("dram_clk", c.period_ps()), req_clk("req_clk", c.period_ps()),
          dram("dram", c, dram_clk, stats) {
        req.socket.bind(dram.upstream);
    }
    void run(std::vector<test::ScriptedRequest> script, uint64_t cycles = 1000000) {
        req.start(std::move(script));
        sc_core::sc_start(sc_core::sc_time(static_cast<double>(cycles * cfg.period_ps()), sc_core::SC_PS));
    }
    double stat(const std::string& n) const { return stats.value("dram." + n); }
    /// Cycles from sending request i to its response.
    uint64_t latency(uint32_t i) { return req.response.at(i) - req.script.at(i).cycle; }
};

/// System address of (bank, row, byte in row) for a single-channel configuration.
uint64_t addr_of(const DramChannelConfig& c, uint32_t bank, uint64_t row, uint32_t col = 0) {
    return (row * c.banks + bank) * c.row_bytes + col;
}

constexpr auto R = sim::MemAccess::Read;
constexpr auto W = sim::MemAccess::Write;

}  // namespace

// ---- plain C++: presets, validation, address mapping, bank state machine -----------------

TEST_CASE("dram: presets give the thesis HBM figure and the vendor peak bandwidths", "[dram]") {
    const auto hbm2 = DramChannelConfig::hbm2();
    CHECK(hbm2.pin_rate_gbps() == Approx(1.0));
    CHECK(hbm2.peak_bandwidth_gbps() == Approx(16.0));
    CHECK(8 * hbm2.peak_bandwidth_gbps() == Approx(128.0));   // one 1024-bit stack
    CHECK(32 * hbm2.peak_bandwidth_gbps() == Approx(512.0));  // four stacks
    CHECK(8 * hbm2.bus_bits == 1024);
    CHECK(32 * DramChannelConfig::hbm3().peak_bandwidth_gbps() == Approx(819.2));
    CHECK(DramChannelConfig::gddr5().peak_bandwidth_gbps() == Approx(32.0));
    CHECK(DramChannelConfig::gddr6().pin_rate_gbps() == Approx(14.0));
    CHECK(DramChannelConfig::gddr6().peak_bandwidth_gbps() == Approx(28.0));
    for (const char* n : {"hbm2", "hbm3", "gddr5", "gddr6"}) {
        const auto c = DramChannelConfig::preset(n);
        CHECK_NOTHROW(c.validate());
        CHECK(c.burst_cycles() == 2);
        CHECK(c.timing.tRC >= c.timing.tRAS);
    }
    CHECK(hbm2.burst_bytes() == 64);
    CHECK(hbm2.period_ps() == 2000);
}

TEST_CASE("dram: config validation names the offending key", "[dram]") {
    auto bad = [](auto edit) {
        auto c = DramChannelConfig::hbm2();
        edit(c);
        return c;
    };
    using Catch::Matchers::StartsWith;
    CHECK_THROWS_WITH(bad([](auto& c) { c.timing.tRC = 10; }).validate(), StartsWith("tRC:"));
    CHECK_THROWS_WITH(bad([](auto& c) { c.bank_groups = 3; }).validate(), StartsWith("bank_groups:"));
    CHECK_THROWS_WITH(bad([](auto& c) { c.scheduler = "random"; }).validate(), StartsWith("scheduler:"));
    CHECK_THROWS_WITH(bad([](auto& c) { c.write_low_watermark = 30; }).validate(),
                      StartsWith("write_low_watermark:"));
    CHECK_THROWS_WITH(bad([](auto& c) { c.timing.burst_length = 3; }).validate(), StartsWith("burst_length:"));
    CHECK_THROWS_WITH(bad([](auto& c) { c.clock_mhz = 0; }).validate(), StartsWith("clock_mhz:"));
    CHECK_THROWS_WITH(bad([](auto& c) { c.timing.tREFI = 100; }).validate(), StartsWith("tREFI:"));
    CHECK_THROWS_AS(bad([](auto& c) { c.row_bytes = 100; }).validate(), sim::ConfigError);
    CHECK_THROWS_WITH(DramChannelConfig::preset("ddr9"), StartsWith("preset:"));
}

TEST_CASE("dram: address mapping fills a row then the next bank then the next row", "[dram]") {
    auto c = DramChannelConfig::hbm2();  // 16 banks in 4 groups, 1 KB rows
    c.channels = 4;
    c.interleave_bytes = 256;
    // 256-byte chunks go round robin over the channels; a channel packs the chunks it owns.
    CHECK(c.channel_of(0) == 0);
    CHECK(c.channel_of(256) == 1);
    CHECK(c.channel_of(3 * 256 + 5) == 3);
    CHECK(c.channel_of(4 * 256) == 0);
    CHECK(c.decode(4 * 256 + 7).local == 256 + 7);
    CHECK(c.decode(1 * 256 + 7).local == 7);
    // Local bytes 0..1023 are one row of bank 0; the next 1 KB is bank 1 (bank group 1).
    auto a = c.decode(3 * 1024 * 4 + 2);  // local 3 * 1024 + 2
    CHECK(a.local == 3 * 1024 + 2);
    CHECK(a.column == 2);
    CHECK(a.bank == 3);
    CHECK(a.bank_group == 3);
    CHECK(a.row == 0);
    auto b = c.decode(uint64_t{17} * 1024 * 4);  // local 17 KB: bank 1 of row 1
    CHECK(b.bank == 1);
    CHECK(b.row == 1);
    CHECK(b.column == 0);
    // XOR hash: row 1's chunk 1 lands in bank 1 ^ 1 = 0.
    c.xor_bank_hash = true;
    CHECK(c.decode(uint64_t{17} * 1024 * 4).bank == 0);
    CHECK(c.decode(uint64_t{16} * 1024 * 4).bank == 1);
}

TEST_CASE("dram: a bank enforces tRCD tRAS tRC tRP tRTP and tWR", "[dram]") {
    const auto c = DramChannelConfig::hbm2();
    const auto& t = c.timing;
    memory::DramBank bank(t, c.burst_cycles());
    CHECK_FALSE(bank.is_open());
    bank.activate(100, 5);
    CHECK(bank.hits(5));
    CHECK_FALSE(bank.hits(6));
    CHECK(bank.earliest_column() == 100 + t.tRCD);
    CHECK(bank.earliest_precharge() == 100 + t.tRAS);
    CHECK(bank.earliest_activate() == 100 + t.tRC);
    bank.read(120);
    CHECK(bank.earliest_precharge() == std::max<uint64_t>(100 + t.tRAS, 120 + t.tRTP));
    bank.write(130);
    CHECK(bank.earliest_precharge() == 130 + t.tWL + c.burst_cycles() + t.tWR);
    bank.precharge(bank.earliest_precharge());
    CHECK_FALSE(bank.is_open());
    CHECK(bank.earliest_activate() == 130 + t.tWL + c.burst_cycles() + t.tWR + t.tRP);
    bank.refresh(200, t.tRFC);
    CHECK(bank.earliest_activate() == 200 + t.tRFC);
}

// ---- timing specifications on a running channel (hbm2: tRCD 7, tCL 7, burst 2) ----------

TEST_CASE("dram: a read to a closed bank returns after tRCD + tCL + burst", "[dram]") {
    Bench b(DramChannelConfig::hbm2());
    const auto& t = b.cfg.timing;
    b.run({{10, addr_of(b.cfg, 2, 7), 64, R}});
    CHECK(b.latency(0) == t.tRCD + t.tCL + b.cfg.burst_cycles());
    CHECK(b.stat("row_misses") == 1);
    CHECK(b.stat("activates") == 1);
    CHECK(b.stat("bank2.activates") == 1);
    CHECK(b.stat("read_latency") == Approx(16));
    CHECK(b.stat("bytes") == 64);
}

TEST_CASE("dram: a row hit after that costs tCL + burst with no second ACT", "[dram]") {
    Bench b(DramChannelConfig::hbm2());
    const auto& t = b.cfg.timing;
    b.run({{10, addr_of(b.cfg, 0, 3), 64, R}, {100, addr_of(b.cfg, 0, 3, 64), 64, R}});
    CHECK(b.latency(1) == t.tCL + b.cfg.burst_cycles());
    CHECK(b.stat("activates") == 1);
    CHECK(b.stat("row_hits") == 1);
    CHECK(b.stat("row_misses") == 1);
}

TEST_CASE("dram: a row conflict costs tRP + tRCD more than a row hit", "[dram]") {
    Bench b(DramChannelConfig::hbm2());
    const auto& t = b.cfg.timing;
    b.run({{10, addr_of(b.cfg, 0, 3), 64, R}, {100, addr_of(b.cfg, 0, 4), 64, R}});
    CHECK(b.latency(1) == t.tRP + t.tRCD + t.tCL + b.cfg.burst_cycles());
    CHECK(b.stat("row_conflicts") == 1);
    CHECK(b.stat("activates") == 2);
    // Waiting on timing costs no ticks: ACT, RD, response for each request.
    CHECK(b.dram_clk.ticks() == 7);
}

TEST_CASE("dram: a 128-byte read on a 64-byte burst takes two bursts", "[dram]") {
    Bench b(DramChannelConfig::hbm2());
    const auto& t = b.cfg.timing;
    b.run({{10, addr_of(b.cfg, 1, 0), 128, R}});
    CHECK(b.latency(0) == t.tRCD + t.tCL + 2 * b.cfg.burst_cycles());
    CHECK(b.stat("bus_busy_cycles") == 4);
}

TEST_CASE("dram: closed page precharges after the access so a later read to the row activates again", "[dram]") {
    auto cfg = DramChannelConfig::hbm2();
    cfg.page_policy = memory::PagePolicy::Closed;
    Bench b(cfg);
    const auto& t = b.cfg.timing;
    b.run({{10, addr_of(b.cfg, 0, 3), 64, R}, {100, addr_of(b.cfg, 0, 3, 64), 64, R},
           {200, addr_of(b.cfg, 0, 9), 64, R}});
    CHECK(b.latency(1) == t.tRCD + t.tCL + b.cfg.burst_cycles());
    CHECK(b.latency(2) == t.tRCD + t.tCL + b.cfg.burst_cycles());  // no tRP on the path
    CHECK(b.stat("activates") == 3);
    CHECK(b.stat("precharges") == 3);
    CHECK(b.stat("row_conflicts") == 0);
}

TEST_CASE("dram: refresh blocks the banks for tRFC", "[dram]") {
    Bench b(DramChannelConfig::hbm2());
    const auto& t = b.cfg.timing;
    const uint64_t send = t.tREFI + 1;
    b.run({{send, addr_of(b.cfg, 5, 1), 64, R}}, 3000);
    CHECK(b.req.response.at(0) == t.tREFI + t.tRFC + t.tRCD + t.tCL + b.cfg.burst_cycles());
    CHECK(b.stat("refreshes") == 1);
    CHECK(b.stat("refresh_cycles") == t.tRFC);
}

TEST_CASE("dram: tFAW limits four activates", "[dram]") {
    Bench b(DramChannelConfig::hbm2());
    const auto& t = b.cfg.timing;
    std::vector<test::ScriptedRequest> s;
    for (uint32_t bank = 0; bank < 5; ++bank) s.push_back({10, addr_of(b.cfg, bank, 0), 64, R});
    b.run(s);
    const uint64_t access = t.tRCD + t.tCL + b.cfg.burst_cycles();
    // ACTs tRRD_S apart (banks 0..3 are in different groups) ...
    CHECK(b.latency(1) == t.tRRD_S + access);
    CHECK(b.latency(3) == 3 * t.tRRD_S + access);
    // ... but the fifth waits for the four-activate window to roll past the first.
    REQUIRE(t.tFAW > 4 * t.tRRD_S);
    CHECK(b.latency(4) == t.tFAW + access);
}

TEST_CASE("dram: FR-FCFS serves a younger row hit before an older row miss", "[dram]") {
    Bench b(DramChannelConfig::hbm2());
    const auto& t = b.cfg.timing;
    b.run({{10, addr_of(b.cfg, 0, 3), 64, R},
           {100, addr_of(b.cfg, 0, 4), 64, R},       // older: conflict
           {100, addr_of(b.cfg, 0, 3, 128), 64, R}});  // younger: hit
    CHECK(b.req.response.at(2) < b.req.response.at(1));
    CHECK(b.latency(2) == t.tCL + b.cfg.burst_cycles());
    CHECK(b.stat("row_hits") == 1);
}

TEST_CASE("dram: FCFS serves an older row miss before a younger row hit", "[dram]") {
    auto cfg = DramChannelConfig::hbm2();
    cfg.scheduler = "fcfs";
    Bench b(cfg);
    const auto& t = b.cfg.timing;
    b.run({{10, addr_of(b.cfg, 0, 3), 64, R},
           {100, addr_of(b.cfg, 0, 4), 64, R},
           {100, addr_of(b.cfg, 0, 3, 128), 64, R}});
    CHECK(b.req.response.at(1) < b.req.response.at(2));
    CHECK(b.latency(1) == t.tRP + t.tRCD + t.tCL + b.cfg.burst_cycles());
    CHECK(b.stat("row_conflicts") == 2);  // the younger one found row 4 open by then
}

TEST_CASE("dram: FR-FCFS with a row-hit cap lets an older conflict close the row", "[dram]") {
    auto cfg = DramChannelConfig::hbm2();
    cfg.scheduler = test::policy_spec(memory::dram_schedulers(), "frfcfs", "max_row_hits = 2");
    Bench b(cfg);
    b.run({{10, addr_of(b.cfg, 0, 3), 64, R},
           {100, addr_of(b.cfg, 0, 4), 64, R},         // older conflict
           {100, addr_of(b.cfg, 0, 3, 64), 64, R},     // younger hits ...
           {100, addr_of(b.cfg, 0, 3, 128), 64, R},
           {100, addr_of(b.cfg, 0, 3, 192), 64, R}});
    // Without the cap the three hits would all go first; with it the conflict overtakes the last.
    CHECK(b.req.response.at(2) < b.req.response.at(1));
    CHECK(b.req.response.at(1) < b.req.response.at(4));
    CHECK(b.stat("activates") == 3);
}

TEST_CASE("dram: write drain: writes below the high watermark wait for the reads", "[dram]") {
    auto cfg = DramChannelConfig::hbm2();
    cfg.write_high_watermark = 8;
    cfg.write_low_watermark = 2;
    Bench b(cfg);
    std::vector<test::ScriptedRequest> s;
    for (uint32_t i = 0; i < 7; ++i) s.push_back({10, addr_of(cfg, 8, 0, i * 64), 64, W});
    for (uint32_t i = 0; i < 40; ++i) s.push_back({10, 0x100000 + i * 64ull, 64, R});
    b.run(s);
    REQUIRE(b.req.response.size() == 47);
    uint64_t last_read = 0, first_write = ~uint64_t{0};
    for (uint32_t i = 0; i < 47; ++i) {
        if (i < 7) first_write = std::min(first_write, b.req.response[i]);
        else last_read = std::max(last_read, b.req.response[i]);
    }
    CHECK(first_write > last_read);
    CHECK(b.stat("write_drains") == 1);
}

TEST_CASE("dram: write drain: at the high watermark writes drain down to the low watermark", "[dram]") {
    auto cfg = DramChannelConfig::hbm2();
    cfg.write_high_watermark = 8;
    cfg.write_low_watermark = 2;
    Bench b(cfg);
    const auto& t = b.cfg.timing;
    std::vector<test::ScriptedRequest> s;
    for (uint32_t i = 0; i < 8; ++i) s.push_back({10, addr_of(cfg, 8, 0, i * 64), 64, W});
    for (uint32_t i = 0; i < 40; ++i) s.push_back({10, 0x100000 + i * 64ull, 64, R});
    b.run(s);
    REQUIRE(b.req.response.size() == 48);
    uint64_t first_read = ~uint64_t{0}, last_read = 0;
    for (uint32_t i = 8; i < 48; ++i) {
        first_read = std::min(first_read, b.req.response[i]);
        last_read = std::max(last_read, b.req.response[i]);
    }
    for (uint32_t i = 0; i < 6; ++i) CHECK(b.req.response[i] < first_read);  // drained 8 -> 2
    for (uint32_t i = 6; i < 8; ++i) CHECK(b.req.response[i] > last_read);   // the rest wait
    // The first read issues no earlier than tWTR after the last drained write's data.
    uint64_t last_drained = 0;
    for (uint32_t i = 0; i < 6; ++i) last_drained = std::max(last_drained, b.req.response[i]);
    CHECK(first_read >= last_drained + t.tWTR_S + t.tCL + b.cfg.burst_cycles());
    CHECK(b.stat("write_drains") == 2);
    CHECK(b.stat("writes") == 8);
}

TEST_CASE("dram: a full queue withholds END_REQ and still answers everything", "[dram]") {
    auto cfg = DramChannelConfig::hbm2();
    cfg.read_queue_depth = 2;
    Bench b(cfg);
    std::vector<test::ScriptedRequest> s;
    for (uint32_t i = 0; i < 10; ++i) s.push_back({10, addr_of(cfg, i % 16, i), 64, i == 9 ? sim::MemAccess::Atomic : R});
    b.run(s);
    CHECK(b.req.response.size() == 10);
    CHECK(b.req.times_blocked > 0);
    CHECK(b.stat("reads") == 9);
    CHECK(b.stat("atomics") == 1);
}

TEST_CASE("dram: a long stream of sequential reads reaches at least 90 percent of peak bandwidth", "[dram]") {
    const auto cfg = DramChannelConfig::hbm2();
    Bench b(cfg);
    const uint32_t n = 8000, line = 128;
    std::vector<test::ScriptedRequest> s;
    for (uint32_t i = 0; i < n; ++i) s.push_back({0, uint64_t{i} * line, line, R});
    b.run(s);
    REQUIRE(b.req.response.size() == n);
    const uint64_t elapsed = b.req.response.at(n - 1);
    const double bytes_per_cycle = cfg.bus_bits / 8.0 * cfg.data_rate;
    const double fraction = n * static_cast<double>(line) / (static_cast<double>(elapsed) * bytes_per_cycle);
    WARN("hbm2 sequential read stream: " << fraction * 100 << " % of peak over " << elapsed
         << " cycles, " << b.stat("refreshes") << " refreshes, row hits " << b.stat("row_hits")
         << ", ticks " << b.dram_clk.ticks());
    CHECK(fraction >= 0.90);
    CHECK(b.dram_clk.ticks() <= elapsed);  // never more than one tick per cycle
}

TEST_CASE("dram: the controller sleeps: an idle channel ticks zero times over a long idle gap", "[dram]") {
    Bench b(DramChannelConfig::hbm2());
    const auto& t = b.cfg.timing;
    const uint64_t gap = 500000;
    b.run({{10, addr_of(b.cfg, 0, 1), 64, R}, {gap, addr_of(b.cfg, 0, 1, 64), 64, R}}, gap + 1000);
    REQUIRE(b.req.response.size() == 2);
    // Each read: one tick to ACT (or RD), one for the RD, one to respond. Nothing in between.
    CHECK(b.dram_clk.ticks() == 6);
    // Refreshes missed while asleep are still accounted, and closed the open row.
    CHECK(b.stat("refreshes") == gap / t.tREFI);
    CHECK(b.latency(1) == t.tRCD + t.tCL + b.cfg.burst_cycles());
}

TEST_CASE("dram: gddr5 with one command bus serves a closed-bank read in tRCD + tCL + burst", "[dram]") {
    Bench b(DramChannelConfig::gddr5());
    const auto& t = b.cfg.timing;
    b.run({{10, addr_of(b.cfg, 3, 2), 32, R}, {10, addr_of(b.cfg, 3, 2, 32), 32, R}});
    CHECK(b.latency(0) == t.tRCD + t.tCL + b.cfg.burst_cycles());
    CHECK(b.latency(1) == t.tRCD + t.tCL + b.cfg.burst_cycles() + t.tCCD_L);  // same bank group
}

TEST_CASE("dram: per-bank refresh blocks one bank for tRFCsb while the others keep serving", "[dram]") {
    auto cfg = DramChannelConfig::hbm2();
    cfg.refresh_mode = memory::RefreshMode::PerBank;
    Bench b(cfg);
    const auto& t = b.cfg.timing;
    const uint64_t due = t.tREFI / b.cfg.banks;  // bank 0's refresh
    const uint64_t access = t.tRCD + t.tCL + b.cfg.burst_cycles();
    b.run({{due + 1, addr_of(b.cfg, 0, 1), 64, R}, {due + 1, addr_of(b.cfg, 1, 1), 64, R}}, 3000);
    CHECK(b.req.response.at(0) == due + t.tRFCsb + access);  // waits for its bank's refresh
    CHECK(b.req.response.at(1) <= due + 1 + access + t.tRRD_L);  // another bank: not blocked
    CHECK(b.stat("refreshes") >= 1);
}

// Issue 24: refreshes missed over a long idle gap are applied in closed form (each issues at
// its due cycle once every bank is closed), not one by one: 10^10 cycles are ~2.6 million
// refresh intervals. Counts and the banks' state after the gap are those of ticking through it.
TEST_CASE("dram: an idle gap of 10^10 cycles accounts every refresh and leaves the banks as ticking would", "[dram]") {
    Bench b(DramChannelConfig::hbm2());
    const auto& t = b.cfg.timing;
    const uint64_t gap = 10000000000ull;
    b.run({{10, addr_of(b.cfg, 0, 1), 64, R}, {gap, addr_of(b.cfg, 0, 1, 64), 64, R}}, gap + 1000);
    REQUIRE(b.req.response.size() == 2);
    CHECK(b.stat("refreshes") == gap / t.tREFI);
    CHECK(b.stat("refresh_cycles") == (gap / t.tREFI) * t.tRFC);
    // The read after the gap finds its bank closed, free unless the last refresh still holds it.
    const uint64_t last_ref = (gap / t.tREFI) * t.tREFI;
    const uint64_t start = std::max(gap, last_ref + t.tRFC);
    CHECK(b.req.response.at(1) == start + t.tRCD + t.tCL + b.cfg.burst_cycles());
}

TEST_CASE("dram: per-bank refresh over an idle gap of 10^9 cycles is accounted in closed form too", "[dram]") {
    auto cfg = DramChannelConfig::hbm2();
    cfg.refresh_mode = memory::RefreshMode::PerBank;
    Bench b(cfg);
    const auto& t = b.cfg.timing;
    const uint64_t gap = 1000000000ull, interval = t.tREFI / b.cfg.banks;
    b.run({{10, addr_of(b.cfg, 3, 1), 64, R}, {gap, addr_of(b.cfg, 3, 1, 64), 64, R}}, gap + 1000);
    REQUIRE(b.req.response.size() == 2);
    const uint64_t n = gap / interval;
    CHECK(b.stat("refreshes") == n);
    CHECK(b.stat("refresh_cycles") == n * t.tRFCsb);
    // Bank 3's last refresh: the latest k * interval <= gap with k % banks == 3 (k counted from 1).
    uint64_t k = n;
    while (k % b.cfg.banks != 4 % b.cfg.banks) --k;
    const uint64_t start = std::max(gap, k * interval + t.tRFCsb);
    CHECK(b.req.response.at(1) == start + t.tRCD + t.tCL + b.cfg.burst_cycles());
}
