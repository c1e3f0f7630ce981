// SPDX-License-Identifier: Apache-2.0
// The CTA command/event port: an SM's CTA manager and the preemption controller driven through it.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "core/cta_port.h"
#include "sched/preemption_controller.h"
#include "tests/component/sm_bench.h"

using namespace stacksim;
using test::SmBench;

namespace {

/// Each thread adds its tid p2 times and stores the sum at p0 + 4 tid (a long, register-only loop).
const char* const kLoop = R"(
ld.param.u64 %rd1, [p0];
ld.param.u32 %r1, [p2];
mov.u32 %r2, %tid.x;
mov.u32 %r3, 0;
$L:
add.s32 %r3, %r3, %r2;
sub.s32 %r1, %r1, 1;
setp.ne.s32 %p1, %r1, 0;
@%p1 bra $L;
mul.wide.u32 %rd2, %r2, 4;
add.s64 %rd1, %rd1, %rd2;
st.global.u32 [%rd1], %r3;
ret;)";

constexpr uint32_t kThreads = 64;
constexpr uint32_t kIterations = 400;

/// Keeps every event it hears, in order (it takes a Saved event's SavedCta).
struct EventLog : sim::MessageSink<core::CtaEvent> {
    struct Entry {
        core::CtaEventKind kind;
        uint32_t sm;
        const core::KernelLaunch* launch;
        uint64_t cta_index, cycles, instructions;
    };
    std::vector<Entry> entries;
    std::vector<std::unique_ptr<core::SavedCta>> saved;
    void receive(core::CtaEvent& e) override {
        entries.push_back({e.kind, e.sm, e.launch, e.cta_index, e.cycles, e.instructions});
        if (e.saved) saved.push_back(std::move(e.saved));
    }
    size_t count(core::CtaEventKind k) const {
        size_t n = 0;
        for (const Entry& x : entries) n += x.kind == k;
        return n;
    }
};

/// One SM, its scripted memory and functional global memory; commands go out on `port`,
/// events come back to `log`. No dispatcher: the test is the scheduler.
struct PortBench {
    sim::StatRegistry stats;
    sim::ClockDomain clock{"clk", 1000};
    core::Sm sm{"sm", 0, core::SmConfig(), clock, policies(), stats};
    test::ScriptedMemory mem{"mem", clock, 100};
    sim::SparseMemory global;
    core::CtaCommandPort port;
    EventLog log;
    core::KernelLaunch launch;
    std::unique_ptr<core::Module> module;

    PortBench() {
        sm.downstream.bind(mem.upstream);
        port.bind(sm.cta_manager());
        sm.cta_manager().events.bind(log);
        module = std::make_unique<core::Module>(workloads::parse_ptx(test::snippet(kLoop), "loop.ptx"));
        core::Kernel& k = module->kernels.at(0);
        core::compute_reconvergence(k);
        launch.kernel = &k;
        launch.block = {kThreads, 1, 1};
        launch.params.assign(k.param_bytes, 0);
        const uint64_t out = 0x10000;
        std::memcpy(launch.params.data() + k.params[0].offset, &out, 8);
        std::memcpy(launch.params.data() + k.params[2].offset, &kIterations, 4);
        launch.shared_bytes = k.static_shared_bytes;
        launch.global = &global;
    }
    static std::vector<std::unique_ptr<core::WarpSchedulerPolicy>> policies() {
        std::vector<std::unique_ptr<core::WarpSchedulerPolicy>> p;
        for (uint32_t s = 0; s < core::SmConfig().schedulers; ++s) p.push_back(sched::warp_schedulers().create("lrr"));
        return p;
    }
    void run_for(uint64_t cycles) { sc_core::sc_start(sc_core::sc_time(static_cast<double>(cycles), sc_core::SC_NS)); }
    double stat(const std::string& n) const { return stats.value("sm." + n); }
    void check_results() const {
        for (uint32_t t = 0; t < kThreads; ++t) CHECK(global.load<uint32_t>(0x10000 + 4 * t) == t * kIterations);
    }
};

}  // namespace

TEST_CASE("cta port: a Start command runs the CTA and a Finished event names it with its cycles and instructions",
          "[cta_port]") {
    PortBench b;
    REQUIRE(b.sm.cta_manager().can_accept(b.launch));
    b.port.send(core::CtaCommand::start(b.launch, 0));
    CHECK(b.sm.cta_manager().resident_ctas().size() == 1);
    sc_core::sc_start();
    REQUIRE(b.log.entries.size() == 1);
    const auto& e = b.log.entries[0];
    CHECK(e.kind == core::CtaEventKind::Finished);
    CHECK(e.launch == &b.launch);
    CHECK(e.cta_index == 0);
    CHECK(e.cycles > kIterations);
    CHECK(e.instructions == b.stat("warp_instructions"));
    CHECK(b.sm.cta_manager().resident_ctas().empty());
    CHECK(b.launch.ctas_completed == 0);  // the dispatcher's tally, not the SM's
    // The SM counts the kernel's issue tallies in its own KernelTally, never in the launch.
    const core::KernelTally t = b.sm.cta_manager().tally(b.launch);
    CHECK(t.warp_instructions == b.stat("warp_instructions"));
    CHECK(t.outcomes[static_cast<size_t>(core::IssueOutcome::Issued)] == b.stat("issue.issued"));
    CHECK(b.launch.warp_instructions == 0);
    CHECK(b.launch.outcomes[static_cast<size_t>(core::IssueOutcome::Issued)] == 0);
    b.port.send(core::CtaCommand::forget(b.launch));  // what the dispatcher sends once it collected them
    CHECK(b.sm.cta_manager().tally(b.launch).warp_instructions == 0);
    b.check_results();
}

TEST_CASE("cta port: Preempt(switch) saves the context and reports Saved, and Restore resumes it where it stopped",
          "[cta_port]") {
    PortBench b;
    b.port.send(core::CtaCommand::start(b.launch, 0));
    b.run_for(300);
    REQUIRE(b.log.entries.empty());
    b.port.send(core::CtaCommand::preempt(0, core::PreemptTechnique::Switch));
    b.run_for(2000);
    REQUIRE(b.log.entries.size() == 1);
    CHECK(b.log.entries[0].kind == core::CtaEventKind::Saved);
    REQUIRE(b.log.saved.size() == 1);
    const uint64_t before = b.log.saved[0]->warp_instructions;
    CHECK(before > 0);
    CHECK(b.sm.cta_manager().resident_ctas().empty());
    CHECK(b.stat("preemption.context_bytes_saved") == static_cast<double>(b.log.saved[0]->context_bytes));
    CHECK(b.mem.requests().size() > 0);  // the context crossed the memory port

    b.port.send(core::CtaCommand::restore(b.launch, std::move(b.log.saved[0])));
    sc_core::sc_start();
    REQUIRE(b.log.entries.size() == 2);
    CHECK(b.log.entries[1].kind == core::CtaEventKind::Finished);
    CHECK(b.stat("preemption.ctas_restored") == 1);
    CHECK(b.stat("preemption.context_bytes_restored") == b.stat("preemption.context_bytes_saved"));
    // Resumed, not restarted: no instruction was issued twice.
    CHECK(b.log.entries[1].instructions == b.stat("warp_instructions"));
    b.check_results();
}

TEST_CASE("cta port: Preempt(flush) drops the CTA and reports Flushed, and a Start of the same index reruns it",
          "[cta_port]") {
    PortBench b;
    b.port.send(core::CtaCommand::start(b.launch, 0));
    b.run_for(300);
    b.port.send(core::CtaCommand::preempt(0, core::PreemptTechnique::Flush));
    b.run_for(500);
    REQUIRE(b.log.entries.size() == 1);
    CHECK(b.log.entries[0].kind == core::CtaEventKind::Flushed);
    CHECK(b.log.entries[0].cta_index == 0);
    CHECK(b.stat("preemption.ctas_flushed") == 1);
    CHECK(b.stat("preemption.context_bytes_saved") == 0);
    const double lost = b.stat("preemption.flushed_instructions");
    CHECK(lost > 0);
    b.port.send(core::CtaCommand::start(b.launch, 0));
    sc_core::sc_start();
    REQUIRE(b.log.entries.size() == 2);
    CHECK(b.log.entries[1].kind == core::CtaEventKind::Finished);
    CHECK(b.stat("warp_instructions") == lost + static_cast<double>(b.log.entries[1].instructions));
    b.check_results();
}

TEST_CASE("cta port: a resuming Checkpoint reports Checkpointed and the CTA runs on to its end", "[cta_port]") {
    PortBench b;
    core::CheckpointCounters counters;
    b.port.send(core::CtaCommand::set(core::CtaCommandKind::TrackSharedStores, 1));
    b.port.send(core::CtaCommand::start(b.launch, 0));
    b.run_for(300);
    core::CheckpointOrder o;
    o.resume = true;
    o.counters = &counters;
    b.port.send(core::CtaCommand::checkpoint(0, o));
    sc_core::sc_start();
    REQUIRE(b.log.entries.size() == 2);
    CHECK(b.log.entries[0].kind == core::CtaEventKind::Checkpointed);
    CHECK(b.log.entries[1].kind == core::CtaEventKind::Finished);
    CHECK(counters.first.value() == 1);
    CHECK(counters.first_bytes.value() > 0);
    b.check_results();
}

TEST_CASE("cta port: StopFetch stops the SM's issue until Resume", "[cta_port]") {
    PortBench b;
    b.port.send(core::CtaCommand::start(b.launch, 0));
    b.run_for(200);
    b.port.send(core::CtaCommand::set(core::CtaCommandKind::StopFetch, 0));
    b.run_for(100);  // what the I-buffers held drains
    const double issued = b.stat("warp_instructions");
    b.run_for(1000);
    CHECK(b.stat("warp_instructions") == issued);
    CHECK(b.log.entries.empty());
    b.port.send(core::CtaCommand::set(core::CtaCommandKind::Resume, 0));
    sc_core::sc_start();
    REQUIRE(b.log.entries.size() == 1);
    CHECK(b.log.entries[0].kind == core::CtaEventKind::Finished);
    b.check_results();
}

namespace {

/// One SM taking one CTA at a time, its dispatcher and a preemption controller with `policy`.
struct ControllerBench {
    static core::SmConfig one_cta() {
        core::SmConfig c;
        c.max_ctas = 1;
        return c;
    }
    SmBench bench{one_cta()};
    EventLog log;
    std::unique_ptr<sched::PreemptionController> controller;
    const core::Kernel& kernel;

    explicit ControllerBench(const std::string& policy) : kernel(bench.kernel(kLoop)) {
        sched::PreemptionConfig cfg;
        cfg.policy = sim::PolicySpec{policy};
        controller = std::make_unique<sched::PreemptionController>("preemption", bench.dispatcher, one_cta(),
                                                                   bench.clock, 1000.0, 100.0, cfg, bench.stats);
        bench.dispatcher.events.bind(*controller);
        bench.dispatcher.events.bind(log);
    }
    /// Starts `kernel` writing to `out`, at `priority`.
    SmBench::Run& start(uint64_t out, int priority) {
        auto& r = bench.start(kernel, kThreads, out, 0, kIterations);
        r.launch.priority = priority;  // read by the controller's decision, a delta cycle later
        return r;
    }
};

}  // namespace

TEST_CASE("cta port: the preemption controller switches a low-priority CTA out for a high-priority kernel and "
          "learns of it from the events",
          "[cta_port][preemption_controller]") {
    ControllerBench c("switch");
    SmBench::Run& low = c.start(0x10000, 0);
    c.bench.run_for(300);
    SmBench::Run& high = c.start(0x20000, 1);
    c.bench.run();
    REQUIRE(low.done);
    REQUIRE(high.done);
    CHECK(high.end_cycle < low.end_cycle);
    REQUIRE(c.controller->records().size() == 1);
    const auto& rec = c.controller->records()[0];
    CHECK(rec.done);
    CHECK(rec.switched == 1);
    CHECK(rec.done_cycle > rec.request_cycle);
    CHECK(c.bench.stats.value("preemption.latency") == static_cast<double>(rec.done_cycle - rec.request_cycle));
    CHECK(c.bench.stat("preemption.ctas_switched") == 1);
    CHECK(c.bench.stat("preemption.ctas_restored") == 1);
    // What the controller heard, in order: the two kernels' starts, the saved CTA, then the ends.
    REQUIRE(c.log.entries.size() == 5);
    CHECK(c.log.entries[0].kind == core::CtaEventKind::KernelStarted);
    CHECK(c.log.entries[1].kind == core::CtaEventKind::KernelStarted);
    CHECK(c.log.entries[2].kind == core::CtaEventKind::Saved);
    CHECK(c.log.entries[2].launch == &low.launch);
    CHECK(c.log.entries[3].kind == core::CtaEventKind::Finished);
    CHECK(c.log.entries[3].launch == &high.launch);
    CHECK(c.log.entries[4].launch == &low.launch);
    CHECK(low.launch.ctas_completed == 1);
    for (uint32_t t = 0; t < kThreads; ++t) {
        CHECK(c.bench.global.load<uint32_t>(0x10000 + 4 * t) == t * kIterations);
        CHECK(c.bench.global.load<uint32_t>(0x20000 + 4 * t) == t * kIterations);
    }
}

TEST_CASE("cta port: with the drain policy the controller sends no command and the request ends when the CTA "
          "finishes",
          "[cta_port][preemption_controller]") {
    ControllerBench c("drain");
    SmBench::Run& low = c.start(0x10000, 0);
    c.bench.run_for(300);
    SmBench::Run& high = c.start(0x20000, 1);
    c.bench.run();
    REQUIRE(low.done);
    REQUIRE(high.done);
    CHECK(high.end_cycle > low.end_cycle);
    REQUIRE(c.controller->records().size() == 1);
    CHECK(c.controller->records()[0].drained == 1);
    CHECK(c.controller->records()[0].done_cycle == low.end_cycle);
    CHECK(c.log.count(core::CtaEventKind::Saved) == 0);
    CHECK(c.bench.stat("preemption.ctas_switched") == 0);
}
