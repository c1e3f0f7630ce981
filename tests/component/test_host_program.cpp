// SPDX-License-Identifier: Apache-2.0
// Host program bench: allocation, copies and their PCIe time, launch errors and kernel records.
#include <catch2/catch.hpp>

#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "host/host_program.h"
#include "memory/gmmu.h"
#include "memory/host_memory.h"
#include "memory/pcie_link.h"
#include "sched/cta_dispatcher.h"
#include "sched/cta_placement.h"
#include "sched/kernel_management_unit.h"
#include "sim/clock_domain.h"
#include "sim/error.h"
#include "sim/failure.h"
#include "tests/unit/ptx_test_util.h"

using namespace stacksim;
using workloads::DevPtr;
using workloads::HostApi;

namespace {

/// Stands in for the SMs: runs one CTA at a time, each for `kCtaCycles` cycles, and counts
/// 10 warp instructions per CTA.
class StubSm : public sim::Clocked, public core::CtaStatus, public sim::MessageSink<core::CtaCommand> {
public:
    static constexpr uint64_t kCtaCycles = 100;
    explicit StubSm(sim::ClockDomain& clock) : m_clock(clock) {}
    core::CtaEventPort events;
    uint64_t instructions = 0;
    std::vector<uint64_t> ctas_started;    ///< CTA indices in start order
    std::vector<uint8_t> last_params;      ///< parameter buffer of the last launch seen

    bool can_accept(const core::KernelLaunch&) const override { return m_running == nullptr; }
    bool only_runs(const core::KernelLaunch&) const override { return true; }
    std::vector<core::ResidentCta> resident_ctas() const override { return {}; }
    core::KernelTally tally(const core::KernelLaunch& l) const override {
        auto it = m_tallies.find(&l);
        return it == m_tallies.end() ? core::KernelTally{} : it->second;
    }
    void receive(core::CtaCommand& c) override {
        if (c.kind == core::CtaCommandKind::ForgetKernel) {
            m_tallies.erase(c.launch);
            return;
        }
        if (c.kind != core::CtaCommandKind::Start) throw std::logic_error("StubSm: only starts CTAs");
        m_running = c.launch;
        ctas_started.push_back(c.cta_index);
        last_params = c.launch->params;
        m_clock.wake_at(*this, m_clock.cycle() + kCtaCycles);
    }
    uint32_t sm_id() const override { return 0; }
    bool tick(uint64_t) override {
        core::KernelLaunch* done = m_running;
        if (!done) return false;
        m_running = nullptr;
        instructions += 10;
        m_tallies[done].warp_instructions += 10;
        core::CtaEvent e;
        e.launch = done;
        events.send(std::move(e));
        return false;
    }

private:
    sim::ClockDomain& m_clock;
    core::KernelLaunch* m_running = nullptr;
    std::map<const core::KernelLaunch*, core::KernelTally> m_tallies;
};

/// A host program given as a function.
class FunctionWorkload : public workloads::Workload {
public:
    explicit FunctionWorkload(std::function<void(HostApi&)> body) : m_body(std::move(body)) {}
    void run(HostApi& host) override { m_body(host); }
    workloads::VerifyResult verify() override { return {true, 0, 0, ""}; }

private:
    std::function<void(HostApi&)> m_body;
};

/// How the host is wired.
struct Wiring {
    bool pcie = false;             ///< copies cross a timed PCIe link (host.timed_copies)
    std::string uvm_mode = "off";  ///< a GMMU is attached unless "off"
    bool free_copies = false;      ///< set_gmmu's free_copies
    bool page_aligned = true;      ///< uvm.page_aligned_allocations
};

/// HostProgram on a 1 GHz core clock with a CTA dispatcher over one StubSm; optionally a
/// PCIe link with its host memory, and a GMMU. One bench per process.
struct HostBench {
    sim::StatRegistry stats;
    sim::ClockDomain clock{"clk", 1000};
    StubSm sm{clock};
    sched::CtaDispatcher dispatcher{{&sm}, sched::cta_placements().create("round_robin")};
    sched::KernelManagementUnit kmu{dispatcher, 32};
    FunctionWorkload workload;
    std::unique_ptr<memory::HostMemory> host_memory;
    std::unique_ptr<memory::PcieLink> pcie;
    std::unique_ptr<memory::Gmmu> gmmu;
    std::unique_ptr<host::DeviceRuntime> device;
    std::unique_ptr<host::HostProgram> host;

    HostBench(std::function<void(HostApi&)> body, const Wiring& w = Wiring()) : workload(std::move(body)) {
        dispatcher.sms()[0]->commands.bind(sm);
        sm.events.bind(dispatcher);
        if (w.pcie) {
            host_memory = std::make_unique<memory::HostMemory>("host.memory", memory::HostMemoryConfig(), stats);
            pcie = std::make_unique<memory::PcieLink>("pcie", memory::PcieConfig(), *host_memory, stats);
        }
        device = std::make_unique<host::DeviceRuntime>(core::SmConfig(), "", clock, pcie.get());
        host = std::make_unique<host::HostProgram>("host", workload, *device, kmu, host::AppSettings{});
        host->on_finished([] { sc_core::sc_stop(); });
        if (w.uvm_mode != "off") {
            memory::UvmConfig uvm;
            uvm.mode = w.uvm_mode == "device"    ? memory::UvmMode::Device
                       : w.uvm_mode == "managed" ? memory::UvmMode::Managed
                                                 : memory::UvmMode::Ideal;
            uvm.page_aligned_allocations = w.page_aligned;
            gmmu = std::make_unique<memory::Gmmu>("gmmu", uvm, memory::GmmuPlatform(), pcie.get(), stats);
            device->set_gmmu(gmmu.get(), w.free_copies);
        }
    }
    /// Runs the host program to its end; rethrows what it failed with.
    void run() {
        sc_core::sc_start();
        sim::rethrow_failure();
    }
};

uint64_t now_ps() { return sc_core::sc_time_stamp().value(); }

/// The message of the sim::Error `f` throws, or "" if it throws nothing.
template <typename E> std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const E& e) {
        return e.what();
    }
    return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("host program: malloc returns 256-byte aligned allocations that do not overlap", "[host]") {
    std::vector<DevPtr> p;
    HostBench b([&](HostApi& h) {
        for (uint64_t bytes : {1, 300, 0, 256, 257, 4096}) p.push_back(h.malloc(bytes));
    });
    b.run();
    REQUIRE(b.host->finished());
    REQUIRE(p.size() == 6);
    const uint64_t sizes[] = {1, 300, 0, 256, 257, 4096};
    for (size_t i = 0; i < p.size(); ++i) {
        INFO("allocation " << i);
        CHECK(p[i] != 0);
        CHECK(p[i] % 256 == 0);
        if (i > 0) CHECK(p[i] >= p[i - 1] + std::max<uint64_t>(sizes[i - 1], 1));
    }
}

TEST_CASE("host program: in uvm device mode managed allocations are page aligned and share no page with device memory",
          "[host][uvm]") {
    DevPtr d1 = 0, m = 0, d2 = 0;
    HostBench b(
        [&](HostApi& h) {
            d1 = h.malloc(100);
            m = h.malloc_managed(100);
            d2 = h.malloc(100);
        },
        Wiring{true, "device", false});
    b.run();
    const uint64_t page = b.gmmu->config().page_bytes;
    CHECK(d1 % 256 == 0);
    CHECK(d2 % 256 == 0);
    CHECK(m % page == 0);
    CHECK(d1 / page != m / page);
    CHECK(d2 / page != m / page);
}

TEST_CASE("host program: in uvm managed mode each managed allocation starts on its own page", "[host][uvm]") {
    DevPtr a = 0, c = 0;
    uint64_t page = 0;
    HostBench b(
        [&](HostApi& h) {
            a = h.malloc(100);
            c = h.malloc(100);
        },
        Wiring{true, "managed", false});
    page = b.gmmu->config().page_bytes;
    b.run();
    CHECK(a % page == 0);
    CHECK(c == a + page);  // page_aligned_allocations: no page holds two allocations
}

TEST_CASE("host program: managed allocations packed at 256 bytes with page_aligned_allocations off", "[host][uvm]") {
    DevPtr a = 0, c = 0;
    HostBench b(
        [&](HostApi& h) {
            a = h.malloc(100);
            c = h.malloc(100);
        },
        Wiring{true, "managed", false, false});
    b.run();
    CHECK(a % 256 == 0);
    CHECK(c == a + 256);  // every allocation is managed: no page padding between them
}

TEST_CASE("host program: malloc_managed in device mode without the PCIe link is an error", "[host][uvm]") {
    std::string message;
    HostBench b([&](HostApi& h) { message = error_of<sim::SimulationError>([&] { h.malloc_managed(100); }); },
                Wiring{false, "device", false});
    b.run();
    INFO(message);
    CHECK(contains(message, "malloc_managed"));
    CHECK(contains(message, "timed_copies"));
}

// The message once named run.timed_copies; the key is host.timed_copies.
TEST_CASE("host program: the malloc_managed error names the key host.timed_copies", "[host][uvm]") {
    std::string message;
    HostBench b([&](HostApi& h) { message = error_of<sim::SimulationError>([&] { h.malloc_managed(100); }); },
                Wiring{false, "device", false});
    b.run();
    INFO(message);
    CHECK(contains(message, "host.timed_copies"));
}

TEST_CASE("host program: copies and memsets outside every allocation are errors", "[host]") {
    std::vector<std::string> errors;
    bool in_range_ok = false;
    HostBench b([&](HostApi& h) {
        std::vector<uint8_t> buf(512, 1);
        const DevPtr a = h.malloc(100);
        const DevPtr c = h.malloc(100);
        const DevPtr gone = h.malloc(64);
        h.free(gone);
        auto fails = [&](const std::function<void()>& f) { errors.push_back(error_of<sim::SimulationError>(f)); };
        fails([&] { h.memcpy_h2d(a, buf.data(), 101); });        // one byte past the end
        fails([&] { h.memcpy_h2d(a + 100, buf.data(), 1); });    // in the 256-byte padding
        fails([&] { h.memcpy_d2h(buf.data(), a - 4, 8); });      // starts before the allocation
        fails([&] { h.memcpy_d2h(buf.data(), a + 50, 300); });   // runs into the next one
        fails([&] { h.memset(c + 90, 0, 11); });
        fails([&] { h.memcpy_h2d(gone, buf.data(), 4); });       // freed
        fails([&] { h.memset(0x10, 0, 4); });                    // never allocated
        h.memcpy_h2d(a, buf.data(), 100);
        h.memcpy_d2h(buf.data(), c, 100);
        h.memset(c, 7, 100);
        in_range_ok = true;
    });
    b.run();
    CHECK(in_range_ok);
    REQUIRE(errors.size() == 7);
    for (size_t i = 0; i < errors.size(); ++i) {
        INFO("case " << i << ": " << errors[i]);
        CHECK(contains(errors[i], "outside every allocation"));
    }
    CHECK(contains(errors[0], "memcpy to device of 101 bytes"));
    CHECK(contains(errors[2], "memcpy from device"));
    CHECK(contains(errors[4], "memset"));
}

TEST_CASE("host program: h2d then d2h round-trips bytes, memset fills, device memory holds the data", "[host]") {
    std::vector<uint8_t> in(1000), out(1000, 0), filled(64, 0);
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 37 + 11);
    DevPtr p = 0;
    HostBench b([&](HostApi& h) {
        p = h.malloc(2000);
        h.memcpy_h2d(p + 500, in.data(), in.size());
        h.memcpy_d2h(out.data(), p + 500, out.size());
        h.memset(p + 100, 0xAB, 64);
        h.memcpy_d2h(filled.data(), p + 100, filled.size());
    });
    b.run();
    CHECK(out == in);
    CHECK(filled == std::vector<uint8_t>(64, 0xAB));
    CHECK(b.device->device_memory().load<uint8_t>(p + 500 + 999) == in[999]);
    CHECK(b.device->device_memory().load<uint8_t>(p + 99) == 0);
    CHECK(b.device->device_memory().load<uint8_t>(p + 164) == 0);
}

TEST_CASE("host program: a timed copy takes the PCIe link's uncontended time in simulated time", "[host][pcie]") {
    constexpr uint64_t kBytes = 1 << 20;
    uint64_t h2d_ps = 0, d2h_ps = 0, memset_ps = 1;
    HostBench b(
        [&](HostApi& h) {
            std::vector<uint8_t> buf(kBytes, 3);
            const DevPtr p = h.malloc(kBytes);
            uint64_t t = now_ps();
            h.memcpy_h2d(p, buf.data(), kBytes);
            h2d_ps = now_ps() - t;
            t = now_ps();
            h.memcpy_d2h(buf.data(), p, kBytes / 2);
            d2h_ps = now_ps() - t;
            t = now_ps();
            h.memset(p, 0, kBytes);
            memset_ps = now_ps() - t;
        },
        Wiring{true, "off", false});
    b.run();
    const uint64_t h2d = b.pcie->uncontended_ps(memory::Direction::H2D, kBytes);
    const uint64_t d2h = b.pcie->uncontended_ps(memory::Direction::D2H, kBytes / 2);
    // 1 us setup + 0.5 us latency + 1 MiB at 16 GB/s (65.5 us).
    CHECK(h2d > 60'000'000);
    CHECK(h2d_ps == h2d);
    CHECK(d2h_ps == d2h);
    CHECK(b.device->copy_ps() == h2d + d2h);
    CHECK(memset_ps == 0);  // memset is device-side: no PCIe transfer
    CHECK(b.pcie->transfers(memory::Direction::H2D) == 1);
    CHECK(b.pcie->bytes(memory::Direction::D2H) == kBytes / 2);
}

TEST_CASE("host program: without timed copies (no PCIe link) a copy takes no simulated time", "[host][pcie]") {
    uint64_t elapsed = 1;
    HostBench b([&](HostApi& h) {
        std::vector<uint8_t> buf(1 << 20, 3);
        const DevPtr p = h.malloc(buf.size());
        const uint64_t t = now_ps();
        h.memcpy_h2d(p, buf.data(), buf.size());
        h.memcpy_d2h(buf.data(), p, buf.size());
        elapsed = now_ps() - t;
    });
    b.run();
    CHECK(elapsed == 0);
    CHECK(b.device->copy_ps() == 0);
}

TEST_CASE("host program: with a GMMU and free copies (timed copies off) a device copy takes no time", "[host][pcie]") {
    uint64_t elapsed = 1;
    HostBench b(
        [&](HostApi& h) {
            std::vector<uint8_t> buf(1 << 16, 3);
            const DevPtr p = h.malloc(buf.size());
            const uint64_t t = now_ps();
            h.memcpy_h2d(p, buf.data(), buf.size());
            h.memcpy_d2h(buf.data(), p, buf.size());
            elapsed = now_ps() - t;
        },
        Wiring{true, "device", true});
    b.run();
    CHECK(elapsed == 0);
    CHECK(b.device->copy_ps() == 0);
    CHECK(b.pcie->transfers(memory::Direction::H2D) == 0);
}

TEST_CASE("host program: launching an unknown PTX file, entry or a mismatched launch is a clear input error",
          "[host][launch]") {
    std::vector<std::string> errors;
    HostBench b([&](HostApi& h) {
        const std::string ptx = test::snippet("ret;");
        auto fails = [&](const std::function<void()>& f) { errors.push_back(error_of<sim::InputError>(f)); };
        const auto three = workloads::LaunchArgs().ptr(0).ptr(0).u32(0);
        fails([&] { h.launch("no_such_file.ptx", "k", {1, 1, 1}, {32, 1, 1}, three); });
        fails([&] { h.launch("vecadd.ptx", "no_such_entry", {1, 1, 1}, {32, 1, 1}, three); });
        fails([&] { h.launch_ptx_source("mine.ptx", ptx, "other", {1, 1, 1}, {32, 1, 1}, three); });
        fails([&] { h.launch_ptx_source("mine.ptx", ptx, "t", {1, 1, 1}, {32, 1, 1}, workloads::LaunchArgs().u32(1)); });
        fails([&] {
            h.launch_ptx_source("mine.ptx", ptx, "t", {1, 1, 1}, {32, 1, 1}, workloads::LaunchArgs().u32(0).ptr(0).u32(0));
        });
        fails([&] { h.launch_ptx_source("mine.ptx", ptx, "t", {1, 1, 1}, {2048, 1, 1}, three); });
        fails([&] { h.launch_ptx_source("mine.ptx", ptx, "t", {0, 1, 1}, {32, 1, 1}, three); });
        fails([&] { h.launch_ptx_source("bad.ptx", "this is not PTX", "t", {1, 1, 1}, {32, 1, 1}, three); });
    });
    b.run();
    REQUIRE(errors.size() == 8);
    for (size_t i = 0; i < errors.size(); ++i) {
        INFO("case " << i << ": " << errors[i]);
        CHECK_FALSE(errors[i].empty());
    }
    CHECK(contains(errors[0], "no_such_file.ptx"));
    CHECK(contains(errors[0], "no such PTX file"));
    CHECK(contains(errors[1], "vecadd.ptx"));
    CHECK(contains(errors[1], "no_such_entry"));
    CHECK(contains(errors[2], "mine.ptx"));
    CHECK(contains(errors[2], "'other'"));
    CHECK(contains(errors[3], "takes 3 parameters, launch passed 1"));
    CHECK(contains(errors[4], "parameter p0"));
    CHECK(contains(errors[5], "block 2048x1x1"));
    CHECK(contains(errors[6], "grid 0x1x1"));
    CHECK(contains(errors[7], "bad.ptx"));
    CHECK(b.sm.ctas_started.empty());  // nothing reached the SMs
}

TEST_CASE("host program: launches are asynchronous, synchronize waits, records name, CTAs, cycles and instructions",
          "[host][launch]") {
    uint64_t after_launch = 1, after_first = 0;
    HostBench b([&](HostApi& h) {
        const std::string ptx = test::snippet("ret;");
        h.launch_ptx_source("mine.ptx", ptx, "t", {3, 1, 1}, {64, 1, 1},
                            workloads::LaunchArgs().ptr(0x1234).ptr(0x5678).u32(99));
        after_launch = sc_core::sc_time_stamp().value() / 1000;
        h.device_synchronize();
        after_first = sc_core::sc_time_stamp().value() / 1000;
        h.launch("vecadd.ptx", "vecadd", {2, 2, 1}, {128, 1, 1},
                 workloads::LaunchArgs().ptr(0x100).ptr(0x200).ptr(0x300).u32(42));
    });
    b.run();
    const auto& k = b.device->kernels();
    REQUIRE(k.size() == 2);
    CHECK(k[0].name == "t");
    CHECK(k[0].ctas == 3);
    CHECK(k[0].end_cycle - k[0].start_cycle >= 3 * StubSm::kCtaCycles);
    CHECK(k[0].end_cycle - k[0].start_cycle <= 3 * StubSm::kCtaCycles + 3);
    CHECK(k[0].warp_instructions == 30);
    CHECK(after_launch == 0);              // launch() returned at once
    CHECK(after_first == k[0].end_cycle);  // device_synchronize() returned when the kernel had finished
    CHECK(k[1].name == "vecadd");
    CHECK(k[1].ctas == 4);
    CHECK(k[1].start_cycle >= k[0].end_cycle);
    CHECK(k[1].end_cycle - k[1].start_cycle >= 4 * StubSm::kCtaCycles);
    CHECK(k[1].warp_instructions == 40);
    CHECK(b.sm.ctas_started == std::vector<uint64_t>{0, 1, 2, 0, 1, 2, 3});
    // vecadd's parameters packed at their .param offsets: three pointers, then the count.
    REQUIRE(b.sm.last_params.size() >= 28);
    uint64_t ptr = 0;
    uint32_t n = 0;
    std::memcpy(&ptr, b.sm.last_params.data() + 16, 8);
    std::memcpy(&n, b.sm.last_params.data() + 24, 4);
    CHECK(ptr == 0x300);
    CHECK(n == 42);
}

TEST_CASE("host program: a workload that throws stops the simulation with its error", "[host]") {
    HostBench b([](HostApi& h) {
        h.malloc(16);
        throw sim::InputError("workload gave up");
    });
    CHECK_THROWS_WITH(b.run(), Catch::Contains("workload gave up"));
    CHECK_FALSE(b.host->finished());
    CHECK(b.host->failure() != nullptr);
}
