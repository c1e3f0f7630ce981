// SPDX-License-Identifier: Apache-2.0
// The GMMU on a small SystemC bench (PCIe link, host memory, a scripted requester): page-state
// transitions, far faults and batching, partial ranges, migration back, eviction order.
#include <catch2/catch.hpp>

#include "memory/migration_mechanism.h"
#include "tests/unit/policy_spec.h"

#include <functional>
#include <map>
#include <systemc>
#include <vector>

#include "memory/gmmu.h"
#include "memory/host_memory.h"
#include "memory/pcie_link.h"
#include "sim/payload_pool.h"

using namespace stacksim;
using memory::PageState;

namespace {

constexpr uint64_t kBase = 0x1000'0000;

/// A scripted requester: at each step's time it sends its accesses; records replay times.
struct Driver : sc_core::sc_module {
    SC_HAS_PROCESS(Driver);
    std::function<void(Driver&)> body;
    memory::Gmmu* gmmu = nullptr;
    uint32_t unit = 0;
    sim::PayloadPool pool;
    std::map<uint64_t, uint64_t> replayed_ps;  ///< address -> time of replay
    explicit Driver(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(run); }
    void run() { body(*this); }
    /// True if the access went on at once. `sectors`: the 32-byte sectors of the line it reads.
    bool access(uint64_t addr, bool write = false, uint32_t sectors = 0xF) {
        tlm::tlm_generic_payload& p = pool.acquire();
        p.set_address(addr & ~uint64_t{127});
        p.set_data_length(32 * static_cast<unsigned>(__builtin_popcount(sectors)));
        sim::MemExtension& e = sim::PayloadPool::ext(p);
        e.sector_mask = sectors;
        e.access = write ? sim::MemAccess::Write : sim::MemAccess::Read;
        return gmmu->access(unit, p);
    }
    void at_us(double us) {
        sc_core::sc_time t(us, sc_core::SC_US);
        if (t > sc_core::sc_time_stamp()) sc_core::wait(t - sc_core::sc_time_stamp());
    }
};

struct Bench {
    sim::StatRegistry stats;
    memory::HostMemory host;
    memory::PcieLink link;
    memory::Gmmu gmmu;
    Driver driver;
    explicit Bench(const memory::UvmConfig& cfg, const memory::PcieConfig& link_cfg = pcie())
        : host("host.memory", memory::HostMemoryConfig{}, stats), link("pcie", link_cfg, host, stats),
          gmmu("gmmu", cfg, memory::GmmuPlatform{1, 256, 1}, &link, stats), driver("driver") {
        driver.gmmu = &gmmu;
        driver.unit = gmmu.attach(
            [this](tlm::tlm_generic_payload& p) {
                driver.replayed_ps[p.get_address()] = sc_core::sc_time_stamp().value();
            },
            [](uint64_t) {});
    }
    static memory::PcieConfig pcie() {
        memory::PcieConfig c;
        c.h2d_gbps = 16;
        c.d2h_gbps = 16;
        c.per_transfer_overhead_ns = 0;
        c.latency_ns = 0;
        return c;
    }
    memory::PageEntry& page(uint64_t addr) { return *gmmu.page_table().find(gmmu.page_table().vpn(addr)); }
    /// An allocation the host has written (an input): its bytes must cross the link.
    void allocate(uint64_t addr, uint64_t bytes, bool is_managed) {
        gmmu.allocate(addr, bytes, is_managed);
        if (is_managed) gmmu.host_access(addr, bytes, true);
    }
    double stat(const std::string& n) { return stats.value("gmmu." + n); }
};

memory::UvmConfig managed(uint64_t page, const char* mechanism = "whole_page") {
    memory::UvmConfig c;
    c.mode = memory::UvmMode::Managed;
    c.page_bytes = page;
    c.mechanism = mechanism;
    return c;
}

}  // namespace

TEST_CASE("gmmu: a far fault costs the fault latency plus the page transfer then replays", "[gmmu]") {
    Bench b(managed(65536));
    b.allocate(kBase, 4 * 65536, b.gmmu.config().managed());
    b.driver.body = [&](Driver& d) {
        CHECK(b.page(kBase).state == PageState::CpuValid);
        CHECK_FALSE(d.access(kBase + 256));
        CHECK_FALSE(d.access(kBase + 512));  // joins the fault
        d.at_us(100);
        CHECK(b.page(kBase).state == PageState::GpuValid);
        CHECK(d.access(kBase + 4096));
    };
    sc_core::sc_start();
    REQUIRE(b.driver.replayed_ps.size() == 2);
    // 20 us + 64 KB at 16 GB/s = 24.096 us.
    CHECK(b.driver.replayed_ps[kBase + 256] == 24096000);
    CHECK(b.stat("faults.far") == 1);
    CHECK(b.stat("faults.coalesced") == 1);
    CHECK(b.stat("bytes_migrated") == 65536);
}

TEST_CASE("gmmu: single range goes CPU-valid to partial-valid to GPU-valid and back to CPU-valid", "[gmmu]") {
    Bench b(managed(2097152, "single_range"));
    b.allocate(kBase, 2097152, b.gmmu.config().managed());
    b.driver.body = [&](Driver& d) {
        CHECK_FALSE(d.access(kBase + 4096));
        d.at_us(50);
        auto& e = b.page(kBase);
        CHECK(e.state == PageState::PartialValid);
        CHECK(e.valid.bytes() == 128);
        CHECK_FALSE(d.access(kBase + 65536, true));  // beyond the range: the gap comes too
        d.at_us(100);
        CHECK(e.valid.count() == 1);
        CHECK(e.valid.covers(4096, 65536 + 128));
        CHECK(b.stat("faults.range") == 1);
        CHECK(d.access(kBase + 8192));  // inside the range
        CHECK_FALSE(d.access(kBase));
        CHECK_FALSE(d.access(kBase + 2097152 - 128));
        d.at_us(400);
        CHECK(e.state == PageState::GpuValid);
        // The host touches it: the whole page comes back.
        std::vector<uint64_t> back = b.gmmu.host_access(kBase + 100, 4);
        CHECK(back == std::vector<uint64_t>{2097152});
        CHECK(e.state == PageState::CpuValid);
        CHECK(b.gmmu.resident_pages() == 0);
        CHECK_FALSE(d.access(kBase + 4096));  // faults again
    };
    sc_core::sc_start();
    CHECK(b.stat("faults.far") == 2);
    CHECK(b.stat("faults.host") == 1);
    CHECK(b.stat("bytes_migrated_back") == 2097152);
}

TEST_CASE("gmmu: a request partly valid and partly on its way waits without a new request", "[gmmu]") {
    Bench b(managed(65536, "single_range"));
    b.allocate(kBase, 65536, true);
    b.driver.body = [&](Driver& d) {
        d.access(kBase + 4096, false, 0x1);  // far fault: [4096, 4128) valid
        d.at_us(50);
        CHECK(b.page(kBase).valid.bytes() == 32);
        CHECK_FALSE(d.access(kBase + 8192));  // range request: [4128, 8320) on its way
        CHECK_FALSE(d.access(kBase + 4096));  // [4096, 4224): valid, then on its way
        d.at_us(100);
    };
    sc_core::sc_start();
    CHECK(b.driver.replayed_ps.size() == 2);  // by line address: both lines were replayed
    CHECK(b.stat("replays") == 3);
    CHECK(b.stat("faults.range") == 1);
    CHECK(b.stat("faults.coalesced") == 1);
    CHECK(b.link.transfers(memory::Direction::H2D) == 2);  // (a second, empty copy before the fix)
}

TEST_CASE("gmmu: multi range keeps separate ranges up to the limit", "[gmmu]") {
    memory::UvmConfig c = managed(2097152, "multi_range");
    c.mechanism = test::policy_spec(memory::migration_mechanisms(), "multi_range", "max_ranges = 3");
    Bench b(c);
    b.allocate(kBase, 2097152, b.gmmu.config().managed());
    b.driver.body = [&](Driver& d) {
        double t = 0;
        for (uint64_t off : {0, 200 * 1024, 400 * 1024, 600 * 1024, 800 * 1024}) {
            d.access(kBase + off);
            t += 60;
            d.at_us(t);
            CHECK(b.page(kBase).valid.count() <= 3);
        }
        CHECK(b.page(kBase).state == PageState::PartialValid);
        CHECK(b.page(kBase).valid.count() == 3);
    };
    sc_core::sc_start();
    CHECK(b.stat("max_valid_ranges") == 3);
    // Two merges filled one 199 KB gap each: far less than the 2 MB page.
    CHECK(b.stat("bytes_migrated") < 600 * 1024);
}

namespace {
/// Three faults raised at once with `batch` pages per fault batch; returns the last replay, ps.
uint64_t three_faults(uint32_t batch, double& batches) {
    memory::UvmConfig c = managed(4096);
    c.fault_batch = batch;
    Bench b(c);
    b.allocate(kBase, 3 * 4096, b.gmmu.config().managed());
    b.driver.body = [&](Driver& d) {
        for (int i = 0; i < 3; ++i) d.access(kBase + i * 4096);
    };
    sc_core::sc_start();
    REQUIRE(b.driver.replayed_ps.size() == 3);
    uint64_t last = 0;
    for (auto& [a, t] : b.driver.replayed_ps) last = std::max(last, t);
    batches = b.stat("fault_batches");
    return last;
}
}  // namespace

TEST_CASE("gmmu: faults raised together share one batch", "[gmmu]") {
    double batches = 0;
    CHECK(three_faults(256, batches) < 21000000);  // 20 us + three 4 KB pages
    CHECK(batches == 1);
}

TEST_CASE("gmmu: with fault_batch 1 faults are served one batch each", "[gmmu]") {
    double batches = 0;
    CHECK(three_faults(1, batches) > 60000000);
    CHECK(batches == 3);
}

namespace {
/// Pages A, B fault in (A first, A written); A is read again; then C needs the frame of one.
void eviction_order(const std::string& policy) {
    const uint64_t A = kBase, B = kBase + 4096, C = kBase + 8192;
    memory::UvmConfig c = managed(4096);
    c.capacity_bytes = 2 * 4096;
    c.eviction_granularity_bytes = 4096;
    c.eviction = policy;
    Bench b(c);
    b.allocate(kBase, 3 * 4096, b.gmmu.config().managed());
    b.driver.body = [&](Driver& d) {
        d.access(A, true);
        d.at_us(30);
        d.access(B);
        d.at_us(60);
        CHECK(d.access(A));
        d.access(C);
        d.at_us(100);
    };
    sc_core::sc_start();
    CHECK(b.stat("evictions") == 1);
    const bool a_gone = b.page(A).state == PageState::CpuValid;
    const bool b_gone = b.page(B).state == PageState::CpuValid;
    CHECK(a_gone != b_gone);
    if (policy == "lru") {
        CHECK(b_gone);  // A was used after B arrived
        CHECK(b.stat("writebacks") == 0);
    } else {
        CHECK(a_gone);  // A arrived first
        CHECK(b.stat("writebacks") == 1);  // and was written
        CHECK(b.stat("bytes_written_back") == 4096);
        CHECK(b.link.bytes(memory::Direction::D2H) == 4096);
    }
    CHECK(b.page(C).state == PageState::GpuValid);
}
}  // namespace

TEST_CASE("gmmu: age-LRU evicts the page that migrated in first and writes it back", "[gmmu]") { eviction_order("age_lru"); }
TEST_CASE("gmmu: FIFO evicts the page resident longest", "[gmmu]") { eviction_order("fifo"); }
TEST_CASE("gmmu: LRU evicts the page accessed least recently", "[gmmu]") { eviction_order("lru"); }

namespace {
/// One 2 MB managed range: a miss at its start, then two more 50 us later while the first is
/// resident; runs the simulation to its end and checks all three pages arrived.
void three_misses_in_one_range(Bench& b) {
    b.allocate(kBase, 2097152, true);
    b.driver.body = [&](Driver& d) {
        d.access(kBase);
        d.at_us(50);
        d.access(kBase + 100 * 1024);
        d.access(kBase + 300 * 1024);
        d.at_us(100);
        CHECK(b.page(kBase).valid.count() == 3);
    };
    sc_core::sc_start();
}
}  // namespace

TEST_CASE("gmmu: a one-entry migration buffer makes the second range request wait", "[gmmu]") {
    memory::UvmConfig c = managed(2097152, "multi_range");
    c.migration_buffer_entries = 1;
    Bench b(c);
    three_misses_in_one_range(b);
    CHECK(b.stat("faults.range") == 2);
    CHECK(b.stat("migration_buffer_stalls") == 1);
}

TEST_CASE("gmmu: device allocations are GPU-valid and never fault", "[gmmu]") {
    memory::UvmConfig c = managed(65536);
    c.mode = memory::UvmMode::Device;
    Bench b(c);
    b.allocate(kBase, 65536, b.gmmu.config().managed());
    b.driver.body = [&](Driver& d) { CHECK(d.access(kBase)); };
    sc_core::sc_start();
    CHECK(b.page(kBase).state == PageState::GpuValid);
    CHECK(b.gmmu.host_access(kBase, 64).empty());
    CHECK(b.stat("faults.far") == 0);
}

namespace {
/// The range-migration cost model on a link with a driver setup (1 us) and a flight latency
/// (0.5 us): a far fault on a 2 MB page at 0 brings its first 1 KB unit; at 50 us eight reads
/// 128 KB apart miss it (eight separate units and ranges). Returns the time from 50 us to the
/// last replay, ns.
double eight_ranges_ns(const std::function<void(memory::UvmConfig&)>& tweak) {
    memory::UvmConfig c = managed(2097152);
    c.mechanism = test::policy_spec(memory::migration_mechanisms(), "multi_range", "max_ranges = 16");
    tweak(c);
    memory::PcieConfig link = Bench::pcie();
    link.per_transfer_overhead_ns = 1000;
    link.latency_ns = 500;
    Bench b(c, link);
    b.allocate(kBase, 2097152, true);
    b.driver.body = [&](Driver& d) {
        d.access(kBase);
        d.at_us(50);
        for (uint64_t i = 1; i <= 8; ++i) d.access(kBase + i * 131072);
    };
    sc_core::sc_start();
    REQUIRE(b.driver.replayed_ps.size() == 9);
    uint64_t last = 0;
    for (auto& [a, t] : b.driver.replayed_ps) last = std::max(last, t);
    // The host's fault buffer holds pages: the eight misses are one range fault there.
    CHECK(b.stat("faults.range") == (c.range_service == memory::RangeService::Host ? 1 : 8));
    CHECK(b.page(kBase).valid.count() == 9);
    return static_cast<double>(last - 50'000'000) * 1e-3;
}
}  // namespace

// Defaults: eight hardware requests, no setup, data phases back to back at 16 GB/s (64 ns per
// KB), flights overlapping. Each choice that favours ranges, switched off, costs more (one
// elaboration per process: one test case each).
constexpr double kFavouredNs = 8 * 64 + 500;

TEST_CASE("gmmu: range cost model: eight pipelined hardware requests take one flight", "[gmmu]") {
    CHECK(eight_ranges_ns([](memory::UvmConfig&) {}) == Approx(kFavouredNs).margin(2));
}

TEST_CASE("gmmu: range cost model: without pipelining the waiting requests chain behind a flight", "[gmmu]") {
    // The first alone, the seven that waited chained into one copy after its flight.
    const double t = eight_ranges_ns([](memory::UvmConfig& c) { c.range_pipelined = false; });
    CHECK(t == Approx(64 + 500 + 7 * 64 + 500).margin(2));
    CHECK(t > kFavouredNs + 400);
}

TEST_CASE("gmmu: range cost model: one outstanding copy chains the rest", "[gmmu]") {
    const double t = eight_ranges_ns([](memory::UvmConfig& c) { c.range_outstanding = 1; });
    CHECK(t == Approx(64 + 500 + 7 * 64 + 500).margin(2));
    CHECK(t > kFavouredNs + 400);
}

TEST_CASE("gmmu: range cost model: the driver's setup is paid per request", "[gmmu]") {
    const double t = eight_ranges_ns([](memory::UvmConfig& c) { c.range_copy_setup_ns = -1; });
    CHECK(t == Approx(8 * (1000 + 64) + 500).margin(2));  // setups serialised on the DMA engine
    CHECK(t > kFavouredNs + 7000);
}

TEST_CASE("gmmu: range cost model: a range latency delays every request", "[gmmu]") {
    const double t = eight_ranges_ns([](memory::UvmConfig& c) { c.range_fault_latency_ns = 3000; });
    CHECK(t == Approx(3000 + kFavouredNs).margin(2));
}

TEST_CASE("gmmu: range cost model: served by the host, range misses wait for a fault batch", "[gmmu]") {
    // One 20 us batch, then one driver copy (setup, engine held through the flight) of all eight.
    const double t = eight_ranges_ns([](memory::UvmConfig& c) { c.range_service = memory::RangeService::Host; });
    CHECK(t == Approx(20000 + 1000 + 8 * 64 + 500).margin(2));
    CHECK(t > kFavouredNs + 20000);
}

TEST_CASE("gmmu: range cost model: the host's time per range request is served one request at a time", "[gmmu]") {
    // The eight requests queue at the host: the last leaves it after 8 us, then its copy.
    const double t = eight_ranges_ns([](memory::UvmConfig& c) { c.range_host_ns = 1000; });
    CHECK(t == Approx(8 * 1000 + 64 + 500).margin(2));
}

TEST_CASE("gmmu: range misses served by the host are batched like far faults", "[gmmu]") {
    memory::UvmConfig c = managed(2097152, "multi_range");
    c.range_service = memory::RangeService::Host;
    Bench b(c);
    three_misses_in_one_range(b);
    CHECK(b.stat("faults.far") == 1);
    CHECK(b.stat("faults.range") == 1);  // one page in the fault buffer; the second miss joins it
    CHECK(b.stat("faults.coalesced") == 1);
    CHECK(b.stat("fault_batches") == 2);
    CHECK(b.stat("migration_buffer_stalls") == 0);
    CHECK(b.link.transfers(memory::Direction::H2D) == 2);  // one copy per batch and page
}

namespace {
/// A far fault (a store) on a 64 KB page the host never wrote; returns the replay time in ps.
uint64_t unwritten_fault_ps(Bench& b) {
    b.gmmu.allocate(kBase, 65536, true);  // no host write: an output
    b.driver.body = [&](Driver& d) { CHECK_FALSE(d.access(kBase + 256, true)); };
    sc_core::sc_start();
    REQUIRE(b.driver.replayed_ps.size() == 1);
    return b.driver.replayed_ps[kBase + 256];
}
}  // namespace

TEST_CASE("gmmu: a page the host never wrote is populated at its fault batch without a transfer", "[gmmu]") {
    Bench b(managed(65536));
    CHECK(unwritten_fault_ps(b) == 20000000);  // the batch's 20 us, no 4.096 us transfer
    CHECK(b.stat("faults.far") == 1);
    CHECK(b.stat("bytes_migrated") == 0);
    CHECK(b.stat("bytes_populated") == 65536);
    CHECK(b.link.transfers(memory::Direction::H2D) == 0);
    CHECK(b.page(kBase).state == PageState::GpuValid);
}

TEST_CASE("gmmu: with populate_unwritten off a page the host never wrote crosses the link", "[gmmu]") {
    memory::UvmConfig c = managed(65536);
    c.populate_unwritten = false;
    Bench b(c);
    CHECK(unwritten_fault_ps(b) == 24096000);
    CHECK(b.stat("bytes_migrated") == 65536);
    CHECK(b.stat("bytes_populated") == 0);
}

TEST_CASE("gmmu: multi range: a resident page's unwritten ranges need no request, written ones do", "[gmmu]") {
    Bench b(managed(2097152, "multi_range"));
    b.gmmu.allocate(kBase, 2097152, true);
    b.gmmu.host_access(kBase, 1048576, true);  // the host wrote the first half only
    b.driver.body = [&](Driver& d) {
        CHECK_FALSE(d.access(kBase));  // far fault, written bytes: a transfer
        d.at_us(50);
        CHECK(d.access(kBase + 1572864, true));  // never written: populated at once
        CHECK_FALSE(d.access(kBase + 524288));   // written: a range request
        d.at_us(100);
        // A host write makes bytes host data: after the page comes back they must be transferred.
        b.gmmu.host_access(kBase + 1572864, 4, true);
        CHECK_FALSE(d.access(kBase + 1572864));
    };
    sc_core::sc_start();
    CHECK(b.stat("faults.range") == 1);
    CHECK(b.stat("faults.far") == 2);
    CHECK(b.stat("bytes_populated") == 1024);
    CHECK(b.stat("bytes_migrated") == 3 * 1024);
}
