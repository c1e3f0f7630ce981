// SPDX-License-Identifier: Apache-2.0
// ETC's controller on a bench: stub SMs read through core::SmActivity, its StopFetch / Resume
// commands heard on their CTA ports, a real GMMU (oversubscribed managed memory).
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "core/cta_port.h"
#include "core/sm_activity.h"
#include "memory/gmmu.h"
#include "memory/host_memory.h"
#include "memory/pcie_link.h"
#include "memory/uvm_config.h"
#include "sim/clock_domain.h"
#include "sim/stats.h"
#include "uvm/etc_controller.h"

using namespace stacksim;

namespace {

/// An SM as ETC sees it: counters the test sets, and the commands it received.
struct StubSm : core::SmActivity, sim::MessageSink<core::CtaCommand> {
    uint64_t insts = 0, mem_insts = 0, lines = 0;
    bool resident = true, stopped = false;
    std::vector<core::CtaCommandKind> commands;
    uint64_t warp_instructions() const override { return insts; }
    uint64_t global_memory_instructions() const override { return mem_insts; }
    uint64_t coalesced_requests() const override { return lines; }
    bool busy() const override { return resident; }
    bool fetch_stopped() const override { return stopped; }
    void receive(core::CtaCommand& c) override {
        commands.push_back(c.kind);
        if (c.kind == core::CtaCommandKind::StopFetch) stopped = true;
        if (c.kind == core::CtaCommandKind::Resume) stopped = false;
    }
};

constexpr uint32_t kSms = 4;
constexpr uint64_t kSample = 1000;

struct EtcBench {
    sim::StatRegistry stats;
    sim::ClockDomain clock{"clk", 1000};
    std::vector<StubSm> sms = std::vector<StubSm>(kSms);
    memory::HostMemory host{"host.memory", memory::HostMemoryConfig(), stats};
    memory::PcieLink pcie{"pcie", memory::PcieConfig(), host, stats};
    std::unique_ptr<memory::Gmmu> gmmu;
    std::unique_ptr<uvm::EtcController> etc;

    EtcBench(memory::EtcConfig cfg, double capacity_fraction) {
        memory::UvmConfig u;
        u.mode = memory::UvmMode::Managed;
        u.capacity_fraction = capacity_fraction;
        gmmu = std::make_unique<memory::Gmmu>("gmmu", u, memory::GmmuPlatform(), &pcie, stats);
        gmmu->allocate(0x100000, 64 * u.page_bytes, true);
        std::vector<const core::SmActivity*> view;
        for (auto& s : sms) view.push_back(&s);
        etc = std::make_unique<uvm::EtcController>("etc", cfg, view, *gmmu, clock, stats);
        for (uint32_t i = 0; i < kSms; ++i) etc->commands(i).bind(sms[i]);
    }
    /// Every SM issues `insts` more warp instructions, `mem` of them global memory ones that
    /// coalesce into `lines_per_inst` lines each.
    void work(uint64_t insts, uint64_t mem, uint64_t lines_per_inst) {
        for (auto& s : sms) {
            s.insts += insts;
            s.mem_insts += mem;
            s.lines += mem * lines_per_inst;
        }
    }
    void run_for(uint64_t cycles) { sc_core::sc_start(sc_core::sc_time(static_cast<double>(cycles), sc_core::SC_NS)); }
    double stat(const std::string& n) const { return stats.value("etc." + n); }
};

memory::EtcConfig config(memory::EtcMode mode, memory::Throttling throttling = memory::Throttling::None) {
    memory::EtcConfig c;
    c.mode = mode;
    c.throttling = throttling;
    c.sample_cycles = kSample;
    c.sharing = memory::SharingSource::No;
    return c;
}

}  // namespace

TEST_CASE("etc controller: a sample of well-coalesced accesses classes the application regular", "[etc]") {
    EtcBench b(config(memory::EtcMode::Auto), 1.0);
    b.work(100, 50, 2);
    b.run_for(kSample + 10);
    CHECK(b.stat("samples") == 1);
    CHECK(b.stat("class") == static_cast<double>(memory::AppClass::RegularNoSharing));
    CHECK(b.stat("coalescing.deciding") == Approx(2.0));
    CHECK(b.stat("proactive_eviction") == 1);
    CHECK(b.stat("throttling") == 0);
    for (const auto& s : b.sms) CHECK(s.commands.empty());
}

TEST_CASE("etc controller: static throttling of an oversubscribed GPU stops the upper half of the SMs by command",
          "[etc]") {
    EtcBench b(config(memory::EtcMode::Manual, memory::Throttling::Static), 0.5);
    REQUIRE(b.gmmu->oversubscribed());
    b.work(100, 50, 12);  // irregular: 12 lines per memory instruction
    b.run_for(kSample + 10);
    CHECK(b.stat("class") == static_cast<double>(memory::AppClass::Irregular));
    // The commands went out on the SMs' ports, never by a call on the SM.
    CHECK(b.sms[0].commands.empty());
    CHECK(b.sms[1].commands.empty());
    CHECK(b.sms[2].commands == std::vector<core::CtaCommandKind>{core::CtaCommandKind::StopFetch});
    CHECK(b.sms[3].commands == std::vector<core::CtaCommandKind>{core::CtaCommandKind::StopFetch});
    CHECK(b.stat("throttle.stops") == 2);
    CHECK(b.stat("throttle.stopped_at_end") == 2);
}

TEST_CASE("etc controller: the timer stops while nothing moves and no SM is stopped", "[etc]") {
    EtcBench b(config(memory::EtcMode::Auto), 1.0);
    b.run_for(10 * kSample);  // no instruction issued: one wake, then asleep
    CHECK(b.stat("samples") == 1);
    CHECK(b.stat("class") == 0);
    b.work(100, 50, 2);
    b.etc->on_cta_done(core::KernelLaunch{});  // a finished CTA re-arms it
    b.run_for(kSample + 10);
    CHECK(b.stat("samples") == 2);
    CHECK(b.stat("class") == static_cast<double>(memory::AppClass::RegularNoSharing));
}
