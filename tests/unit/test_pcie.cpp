// SPDX-License-Identifier: Apache-2.0
// PCIe link and DMA engines: copy timing, engine concurrency, host memory sharing, config.
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <systemc>
#include <vector>

#include "memory/host_memory.h"
#include "memory/pcie_link.h"
#include "sim/error.h"

using namespace stacksim;
using memory::Direction;

namespace {

/// One SC_THREAD running `body` (a stand-in for the host program's thread).
struct HostThread : sc_core::sc_module {
    SC_HAS_PROCESS(HostThread);
    std::function<void()> body;
    HostThread(sc_core::sc_module_name n, std::function<void()> b) : sc_module(n), body(std::move(b)) {
        SC_THREAD(run);
    }
    void run() { body(); }
};

uint64_t now_ps() { return sc_core::sc_time_stamp().value(); }

/// A link with the given config and host memory, plus its stats.
struct Bench {
    sim::StatRegistry stats;
    memory::HostMemory host;
    memory::PcieLink link;
    Bench(const memory::PcieConfig& cfg, double host_gbps = 51.2)
        : host("host.memory", host_cfg(host_gbps), stats), link("pcie", cfg, host, stats) {}
    static memory::HostMemoryConfig host_cfg(double gbps) {
        memory::HostMemoryConfig c;
        c.bandwidth_gbps = gbps;
        return c;
    }
};

/// Expected duration, ps: overhead + latency + bytes / rate.
double expected_ps(double overhead_ns, double latency_ns, uint64_t bytes, double gbps) {
    return (overhead_ns + latency_ns) * 1e3 + static_cast<double>(bytes) / (gbps * 1e-3);
}

memory::PcieConfig plain(double h2d, double d2h, double overhead_ns = 0, double latency_ns = 0) {
    memory::PcieConfig c;
    c.h2d_gbps = h2d;
    c.d2h_gbps = d2h;
    c.per_transfer_overhead_ns = overhead_ns;
    c.latency_ns = latency_ns;
    return c;
}

std::string config_error(const memory::PcieConfig& c) {
    try {
        c.validate();
    } catch (const sim::ConfigError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("pcie: a copy of N bytes takes overhead plus latency plus N over bandwidth", "[pcie]") {
    memory::PcieConfig cfg;  // defaults: 16 GB/s, 1 us overhead, 500 ns latency
    Bench b(cfg);
    const std::vector<uint64_t> sizes = {0, 4096, 65536, 2u << 20, 64u << 20};
    std::vector<uint64_t> took;
    HostThread t("t", [&] {
        for (uint64_t n : sizes) {
            uint64_t start = now_ps();
            b.link.copy(Direction::H2D, n);
            took.push_back(now_ps() - start);
        }
    });
    sc_core::sc_start();
    REQUIRE(took.size() == sizes.size());
    for (size_t i = 0; i < sizes.size(); ++i) {
        INFO("bytes " << sizes[i]);
        double want = expected_ps(1000, 500, sizes[i], 16.0);
        CHECK(static_cast<double>(took[i]) == Approx(want).epsilon(0.01));
        CHECK(took[i] == b.link.uncontended_ps(Direction::H2D, sizes[i]));
    }
    CHECK(took[3] == 1500000 + 131072000);  // 2 MiB at 16 GB/s = 131.072 us
    CHECK(b.link.transfers(Direction::H2D) == sizes.size());
    CHECK(b.stats.value("pcie.h2d.bytes") == Approx(4096 + 65536 + (2 << 20) + (64 << 20)));
    CHECK(b.stats.value("host.memory.bytes_read") == Approx(4096 + 65536 + (2 << 20) + (64 << 20)));
}

TEST_CASE("pcie: two copies in the same direction serialise in FIFO order", "[pcie]") {
    Bench b(plain(16, 16, 1000, 500));
    const uint64_t n = 1 << 20;
    uint64_t done_a = 0, done_b = 0;
    HostThread ta("a", [&] { b.link.copy(Direction::D2H, n); done_a = now_ps(); });
    HostThread tb("b", [&] { b.link.copy(Direction::D2H, n); done_b = now_ps(); });
    sc_core::sc_start();
    const uint64_t one = b.link.uncontended_ps(Direction::D2H, n);
    CHECK(std::min(done_a, done_b) == one);
    CHECK(std::max(done_a, done_b) == 2 * one);
    CHECK(b.link.overlap_ps() == 0);
    CHECK(b.link.engine_busy_ps(1) == 2 * one);
    CHECK(b.stats.value("pcie.d2h.copy_time") == Approx(1.5 * static_cast<double>(one) * 1e-3));
}

TEST_CASE("pcie: concurrent H2D and D2H on two engines take about as long as the longer one", "[pcie]") {
    Bench b(plain(16, 16, 1000, 500));
    const uint64_t small = 1 << 20, large = 4 << 20;
    uint64_t h2d_done = 0, d2h_done = 0, finished = 0;
    HostThread t("t", [&] {
        auto& h = b.link.start_copy(Direction::H2D, large, &h2d_done);
        auto& d = b.link.start_copy(Direction::D2H, small, &d2h_done);
        sc_core::wait(h & d);
        finished = now_ps();
    });
    sc_core::sc_start();
    const uint64_t longer = b.link.uncontended_ps(Direction::H2D, large);
    const uint64_t shorter = b.link.uncontended_ps(Direction::D2H, small);
    CHECK(finished == longer);  // 32 GB/s of both directions fits in 51.2 GB/s host memory
    CHECK(h2d_done == longer);
    CHECK(d2h_done == shorter);
    CHECK(b.link.overlap_ps() == shorter);
    CHECK(b.stats.value("pcie.overlap_ps") == Approx(static_cast<double>(shorter)));
    CHECK(b.stats.value("pcie.engine0.busy_ps") == Approx(static_cast<double>(longer)));
    CHECK(b.stats.value("pcie.engine1.busy_ps") == Approx(static_cast<double>(shorter)));
    // Achieved bandwidth includes the fixed 1.5 us: 4 MiB / (1.5 us + 262.144 us).
    CHECK(b.stats.value("pcie.h2d.bandwidth_gbps") ==
          Approx(static_cast<double>(large) / static_cast<double>(longer) * 1e3));
    CHECK(b.stats.value("pcie.h2d.bandwidth_gbps") == Approx(15.909).epsilon(0.001));
}

TEST_CASE("pcie: with one DMA engine H2D and D2H serialise", "[pcie]") {
    memory::PcieConfig cfg = plain(16, 16, 1000, 500);
    cfg.dma_engines = 1;
    Bench b(cfg);
    const uint64_t n = 1 << 20;
    uint64_t finished = 0, first = 0;
    HostThread t("t", [&] {
        auto& h = b.link.start_copy(Direction::H2D, n, &first);
        auto& d = b.link.start_copy(Direction::D2H, n);
        sc_core::wait(h & d);
        finished = now_ps();
    });
    sc_core::sc_start();
    const uint64_t one = b.link.uncontended_ps(Direction::H2D, n);
    CHECK(first == one);  // FIFO: H2D was queued first
    CHECK(finished == 2 * one);
    CHECK(b.link.engines() == 1);
    CHECK(b.link.overlap_ps() == 0);
    CHECK(b.link.engine_busy_ps(0) == 2 * one);
    CHECK_FALSE(b.stats.contains("pcie.engine1.busy_ps"));
}

TEST_CASE("pcie: asymmetric bandwidth makes D2H faster than H2D when configured so", "[pcie]") {
    Bench b(plain(12, 16, 1000, 500));  // e.g. a measured 12 GB/s H2D and 16 GB/s D2H
    const uint64_t n = 8 << 20;
    uint64_t h2d = 0, d2h = 0;
    HostThread t("t", [&] {
        uint64_t s = now_ps();
        b.link.copy(Direction::H2D, n);
        h2d = now_ps() - s;
        s = now_ps();
        b.link.copy(Direction::D2H, n);
        d2h = now_ps() - s;
    });
    sc_core::sc_start();
    CHECK(d2h < h2d);
    CHECK(static_cast<double>(h2d) == Approx(expected_ps(1000, 500, n, 12)).epsilon(0.01));
    CHECK(static_cast<double>(d2h) == Approx(expected_ps(1000, 500, n, 16)).epsilon(0.01));
    CHECK(b.stats.value("pcie.d2h.bandwidth_gbps") > b.stats.value("pcie.h2d.bandwidth_gbps"));
}

TEST_CASE("pcie: generation times lanes arithmetic gives the usual per-direction rates", "[pcie]") {
    memory::PcieConfig c;
    CHECK(c.h2d_rate_gbps() == Approx(16.0));  // default: SPEC's 16 GB/s
    c.generation = 3;
    CHECK(c.h2d_rate_gbps() == Approx(15.754).epsilon(0.001));  // 8 GT/s x 16 x 128/130 / 8
    CHECK(c.d2h_rate_gbps() == Approx(15.754).epsilon(0.001));
    c.generation = 4;
    CHECK(c.h2d_rate_gbps() == Approx(31.508).epsilon(0.001));
    c.generation = 5;
    CHECK(c.h2d_rate_gbps() == Approx(63.015).epsilon(0.001));
    c.generation = 6;
    CHECK(c.h2d_rate_gbps() == Approx(121.0).epsilon(0.001));  // 64 GT/s x 16 x 242/256 / 8
    c.generation = 1;
    CHECK(c.h2d_rate_gbps() == Approx(4.0));  // 2.5 GT/s x 16 x 8/10 / 8
    c.generation = 2;
    c.lanes = 8;
    CHECK(c.h2d_rate_gbps() == Approx(4.0));
    c.generation = 3;
    c.lanes = 1;
    CHECK(c.h2d_rate_gbps() == Approx(0.9846).epsilon(0.001));
    SECTION("an explicit rate overrides one direction") {
        c.lanes = 16;
        c.d2h_gbps = 13.2;
        CHECK(c.h2d_rate_gbps() == Approx(15.754).epsilon(0.001));
        CHECK(c.d2h_rate_gbps() == Approx(13.2));
    }
    SECTION("a max payload size charges TLP framing") {
        c.lanes = 16;
        c.max_payload_bytes = 256;
        CHECK(c.h2d_rate_gbps() == Approx(15.754 * 256.0 / 280.0).epsilon(0.001));
    }
}

TEST_CASE("pcie: host memory bandwidth caps a copy", "[pcie]") {
    Bench b(plain(16, 16), 8.0);
    const uint64_t n = 1 << 20;
    uint64_t took = 0;
    HostThread t("t", [&] {
        b.link.copy(Direction::H2D, n);
        took = now_ps();
    });
    sc_core::sc_start();
    CHECK(static_cast<double>(took) == Approx(static_cast<double>(n) / 8e-3).epsilon(0.01));
    CHECK(took == b.link.uncontended_ps(Direction::H2D, n));
}

TEST_CASE("pcie: copies sharing host memory split it and the survivor speeds up", "[pcie]") {
    // 20 GB/s host memory, 16 GB/s each way: both run at 10 GB/s while both move data; when
    // the 1 MB H2D ends (100 us) the D2H has 1 MB left and finishes it at 16 GB/s (62.5 us).
    Bench b(plain(16, 16), 20.0);
    uint64_t h = 0, d = 0;
    HostThread t("t", [&] {
        auto& eh = b.link.start_copy(Direction::H2D, 1000000, &h);
        auto& ed = b.link.start_copy(Direction::D2H, 2000000, &d);
        sc_core::wait(eh & ed);
    });
    sc_core::sc_start();
    CHECK(static_cast<double>(h) == Approx(100e6).epsilon(1e-6));
    CHECK(static_cast<double>(d) == Approx(162.5e6).epsilon(1e-6));
    CHECK(b.link.overlap_ps() == h);
    CHECK(b.host.bytes_read() == 1000000);
    CHECK(b.host.bytes_written() == 2000000);
}

TEST_CASE("pcie: host memory is shared max-min fair", "[pcie]") {
    sim::StatRegistry stats;
    memory::HostMemoryConfig cfg;
    cfg.bandwidth_gbps = 30;
    memory::HostMemory host("host", cfg, stats);
    auto r = host.share({10, 40});
    CHECK(r[0] == Approx(10));  // under its fair share: keeps its cap
    CHECK(r[1] == Approx(20));  // gets the rest
    r = host.share({40, 40});
    CHECK(r[0] == Approx(15));
    CHECK(r[1] == Approx(15));
    r = host.share({5});
    CHECK(r[0] == Approx(5));
    CHECK(host.share({}).empty());
}

TEST_CASE("pcie: validation errors name the key", "[pcie]") {
    memory::PcieConfig ok;
    CHECK(config_error(ok).empty());
    auto with = [](auto set) {
        memory::PcieConfig c;
        set(c);
        return config_error(c);
    };
    CHECK(with([](auto& c) { c.generation = 7; }).rfind("generation:", 0) == 0);
    CHECK(with([](auto& c) { c.lanes = 3; }).rfind("lanes:", 0) == 0);
    CHECK(with([](auto& c) { c.lanes = 0; }).rfind("lanes:", 0) == 0);
    CHECK(with([](auto& c) { c.h2d_gbps = -1; }).rfind("h2d_gbps:", 0) == 0);
    CHECK(with([](auto& c) { c.d2h_gbps = -2; }).rfind("d2h_gbps:", 0) == 0);
    CHECK(with([](auto& c) { c.latency_ns = -1; }).rfind("latency_ns:", 0) == 0);
    CHECK(with([](auto& c) { c.per_transfer_overhead_ns = -5; }).rfind("per_transfer_overhead_ns:", 0) == 0);
    CHECK(with([](auto& c) { c.dma_engines = 3; }).rfind("dma_engines:", 0) == 0);
    CHECK(with([](auto& c) { c.dma_engines = 0; }).rfind("dma_engines:", 0) == 0);
    CHECK(with([](auto& c) { c.max_payload_bytes = 200; }).rfind("max_payload_bytes:", 0) == 0);
    CHECK(with([](auto& c) { c.max_payload_bytes = 8192; }).rfind("max_payload_bytes:", 0) == 0);
    memory::HostMemoryConfig h;
    h.bandwidth_gbps = 0;
    CHECK_THROWS_WITH(h.validate(), Catch::StartsWith("bandwidth_gbps:"));
}

TEST_CASE("pcie: nothing happens between transfers", "[pcie]") {
    Bench b(plain(16, 16, 1000, 500));
    const uint64_t n = 1 << 20;
    uint64_t wakes_before_gap = 0, wakes_after_gap = 0, last = 0;
    HostThread t("t", [&] {
        b.link.copy(Direction::H2D, n);
        wakes_before_gap = b.link.wakeups();
        sc_core::wait(sc_core::sc_time(1, sc_core::SC_MS));  // the host computes for 1 ms
        wakes_after_gap = b.link.wakeups();
        b.link.copy(Direction::D2H, n);
        last = now_ps();
    });
    sc_core::sc_start();
    CHECK(wakes_after_gap == wakes_before_gap);  // idle link: its process never ran
    CHECK(wakes_before_gap <= 4);  // start, setup end, data end, flight end
    CHECK(b.link.wakeups() == 2 * wakes_before_gap);
    CHECK(last == 1000000000 + 2 * b.link.uncontended_ps(Direction::H2D, n));
    CHECK(now_ps() == last);  // nothing left scheduled after the last completion
    CHECK_FALSE(sc_core::sc_pending_activity());
    CHECK(b.link.pending() == 0);
}

TEST_CASE("pcie: many back-to-back copies add up exactly and reuse their events", "[pcie]") {
    Bench b(plain(16, 32, 1000, 500));
    const uint64_t n = 4096;
    uint64_t finished = 0;
    HostThread t("t", [&] {
        for (int i = 0; i < 500; ++i) {
            uint64_t h = 0, d = 0;
            auto& eh = b.link.start_copy(Direction::H2D, n, &h);
            auto& ed = b.link.start_copy(Direction::D2H, n, &d);
            sc_core::wait(eh & ed);
            REQUIRE(h != d);  // D2H is twice as fast, so it always ends first
        }
        finished = now_ps();
    });
    sc_core::sc_start();
    CHECK(finished == 500 * b.link.uncontended_ps(Direction::H2D, n));
    CHECK(b.link.transfers(Direction::H2D) == 500);
    CHECK(b.link.transfers(Direction::D2H) == 500);
    CHECK(b.link.overlap_ps() == 500 * b.link.uncontended_ps(Direction::D2H, n));
}

TEST_CASE("pcie: a copy started with its own setup time skips the configured overhead", "[pcie]") {
    Bench b(plain(16, 16, 1000, 500));
    const uint64_t n = 16000;  // 1 us at 16 GB/s
    uint64_t done_default = 0, done_free = 0;
    HostThread t("t", [&] {
        uint64_t start = now_ps();
        sc_core::wait(b.link.start_copy(Direction::H2D, n));
        done_default = now_ps() - start;
        start = now_ps();
        sc_core::wait(b.link.start_copy(Direction::H2D, n, nullptr, 0.0));
        done_free = now_ps() - start;
    });
    sc_core::sc_start();
    CHECK(done_default == 1000000 + 500000 + 1000000);
    CHECK(done_free == 500000 + 1000000);
}

TEST_CASE("pcie: pipelined copies overlap their flight latency with the next copy's data", "[pcie]") {
    Bench b(plain(16, 16, 1000, 500));
    const uint64_t n = 16000;  // 1 us at 16 GB/s
    std::vector<uint64_t> done(3, 0);
    HostThread t("t", [&] {
        for (int i = 0; i < 3; ++i) b.link.start_copy(Direction::H2D, n, &done[static_cast<size_t>(i)], 0.0, true);
        sc_core::wait(2, sc_core::SC_US);  // not yet done: 1 us data + 0.5 us flight per copy
        CHECK(done[2] == UINT64_MAX);
        sc_core::wait(10, sc_core::SC_US);
    });
    sc_core::sc_start();
    // Data phases back to back (1, 2, 3 us), each followed by its own 0.5 us flight.
    CHECK(done[0] == 1500000);
    CHECK(done[1] == 2500000);
    CHECK(done[2] == 3500000);
    CHECK(b.link.pending() == 0);
    CHECK(b.link.transfers(Direction::H2D) == 3);
}
