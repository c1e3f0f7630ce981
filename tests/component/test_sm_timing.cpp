// SPDX-License-Identifier: Apache-2.0
// SM bench, timing: memory latency, END_REQ back-pressure, reordered responses, sleeping.
#include <catch2/catch.hpp>

#include <algorithm>

#include "tests/component/sm_bench.h"

using namespace stacksim;
using test::RecordedRequest;
using test::SmBench;

namespace {

/// One thread follows p2 pointers from p0 (each load's address is the previous load's
/// value) and stores the last value read to p1.
const char* const kPointerChase = R"(
ld.param.u64 %rd1, [p0];
ld.param.u64 %rd2, [p1];
ld.param.u32 %r1, [p2];
$L:
ld.global.u64 %rd1, [%rd1];
sub.s32 %r1, %r1, 1;
setp.ne.s32 %p1, %r1, 0;
@%p1 bra $L;
st.global.u64 [%rd2], %rd1;
ret;)";

/// One thread sums eight independent loads 256 bytes apart from p0 and stores the sum to p1.
const char* const kIndependentLoads = R"(
ld.param.u64 %rd1, [p0];
ld.param.u64 %rd2, [p1];
ld.global.u32 %r1, [%rd1];
ld.global.u32 %r2, [%rd1+256];
ld.global.u32 %r3, [%rd1+512];
ld.global.u32 %r4, [%rd1+768];
ld.global.u32 %r5, [%rd1+1024];
ld.global.u32 %r6, [%rd1+1280];
ld.global.u32 %r7, [%rd1+1536];
ld.global.u32 %r8, [%rd1+1792];
add.s32 %r9, %r1, %r2;
add.s32 %r9, %r9, %r3;
add.s32 %r9, %r9, %r4;
add.s32 %r9, %r9, %r5;
add.s32 %r9, %r9, %r6;
add.s32 %r9, %r9, %r7;
add.s32 %r9, %r9, %r8;
st.global.u32 [%rd2], %r9;
ret;)";

/// Each thread stores p2, p2 - 1, ..., 1 to consecutive lines from p0 + 4 tid: p2 independent
/// one-line stores per warp.
const char* const kStoreLines = R"(
ld.param.u64 %rd1, [p0];
ld.param.u32 %r1, [p2];
mov.u32 %r2, %tid.x;
mul.wide.u32 %rd2, %r2, 4;
add.s64 %rd1, %rd1, %rd2;
$L:
st.global.u32 [%rd1], %r1;
add.s64 %rd1, %rd1, 128;
sub.s32 %r1, %r1, 1;
setp.ne.s32 %p1, %r1, 0;
@%p1 bra $L;
ret;)";

/// b[tid * stride] = a[tid * stride] + 1 (floats; p0 = a, p1 = b, p2 = stride in bytes).
const char* const kStridedCopy = R"(
ld.param.u64 %rd1, [p0];
ld.param.u64 %rd2, [p1];
ld.param.u32 %r1, [p2];
mov.u32 %r2, %tid.x;
mul.wide.u32 %rd3, %r2, %r1;
add.s64 %rd4, %rd1, %rd3;
ld.global.f32 %f1, [%rd4];
add.f32 %f2, %f1, 0f3F800000;
add.s64 %rd5, %rd2, %rd3;
st.global.f32 [%rd5], %f2;
ret;)";

constexpr uint64_t kA = 0x10000;
constexpr uint64_t kB = 0x80000;

/// A chain of `n` nodes 256 bytes apart from `base`, node i holding the address of node i + 1.
void build_chain(SmBench& b, uint64_t base, uint32_t n) {
    for (uint64_t i = 0; i < n; ++i) b.global.store<uint64_t>(base + 256 * i, base + 256 * (i + 1));
}

/// Records every issued instruction of the SM with its cycle.
struct IssueLog : core::SmObserver {
    struct Issue {
        uint64_t cycle;
        std::string text;
    };
    std::vector<Issue> issues;
    bool watches(uint32_t, uint32_t) const override { return true; }
    void on_event(const core::SmEvent& e) override {
        if (e.kind == core::SmEventKind::Issue) issues.push_back({e.cycle, e.inst ? e.inst->text : ""});
    }
    /// Cycle of the first issued instruction whose text starts with `prefix`.
    uint64_t first(const std::string& prefix) const {
        for (const Issue& i : issues)
            if (i.text.rfind(prefix, 0) == 0) return i.cycle;
        FAIL("no issued instruction starts with " << prefix);
        return 0;
    }
};

}  // namespace

TEST_CASE("sm bench: each of N dependent loads pays the added latency once", "[sm_bench][latency]") {
    // The same kernel twice (each launch has its own I-cache and constant-cache window, so both
    // start cold); the second time the memory is 300 cycles slower. N dependent loads plus the
    // final store, whose acknowledgement ends the CTA, each pay the extra 300 cycles.
    constexpr uint32_t kN = 8;
    constexpr uint64_t kExtra = 300;
    SmBench b(core::SmConfig(), 100);
    const core::Kernel& k = b.kernel(kPointerChase);
    build_chain(b, kA, kN);
    SmBench::Run& fast = b.start(k, 1, kA, kB, kN);
    b.run();
    REQUIRE(fast.done);
    b.mem.set_latency(100 + kExtra);
    SmBench::Run& slow = b.start(k, 1, kA, kB + 8, kN);
    b.run();
    REQUIRE(slow.done);

    const int64_t extra = static_cast<int64_t>(slow.cycles()) - static_cast<int64_t>(fast.cycles());
    INFO("cycles: fast " << fast.cycles() << ", slow " << slow.cycles());
    CHECK(extra >= static_cast<int64_t>((kN + 1) * kExtra) - 10);
    CHECK(extra <= static_cast<int64_t>((kN + 1) * kExtra) + 10);
    // Every load went to the node the previous one pointed at.
    const auto reads = b.mem.requests(sim::MemAccess::Read);
    REQUIRE(reads.size() == 2 * kN);
    for (uint32_t i = 0; i < kN; ++i) {
        CHECK(reads[i].addr == kA + 256 * i);
        CHECK(reads[kN + i].addr == kA + 256 * i);
        if (i > 0) CHECK(reads[i].arrival_cycle > reads[i - 1].response_cycle);
    }
    CHECK(b.global.load<uint64_t>(kB) == kA + 256 * kN);
    CHECK(b.global.load<uint64_t>(kB + 8) == kA + 256 * kN);
}

TEST_CASE("sm bench: independent loads overlap, so added latency is paid about once, not per load",
          "[sm_bench][latency]") {
    constexpr uint64_t kExtra = 300;
    SmBench b(core::SmConfig(), 100);
    const core::Kernel& k = b.kernel(kIndependentLoads);
    for (uint32_t i = 0; i < 8; ++i) b.global.store<uint32_t>(kA + 256 * i, i + 1);
    SmBench::Run& fast = b.start(k, 1, kA, kB);
    b.run();
    REQUIRE(fast.done);
    b.mem.set_latency(100 + kExtra);
    SmBench::Run& slow = b.start(k, 1, kA, kB + 4);
    b.run();
    REQUIRE(slow.done);

    const int64_t extra = static_cast<int64_t>(slow.cycles()) - static_cast<int64_t>(fast.cycles());
    INFO("cycles: fast " << fast.cycles() << ", slow " << slow.cycles());
    // The eight loads wait together (one extra latency), then the store (a second one).
    CHECK(extra >= static_cast<int64_t>(2 * kExtra) - 10);
    CHECK(extra <= static_cast<int64_t>(2 * kExtra) + 10);
    const auto reads = b.mem.requests(sim::MemAccess::Read);
    REQUIRE(reads.size() == 16);
    CHECK(reads[7].arrival_cycle < reads[0].response_cycle);  // all eight in flight together
    CHECK(b.global.load<uint32_t>(kB) == 36);
    CHECK(b.global.load<uint32_t>(kB + 4) == 36);
}

TEST_CASE("sm bench: a withheld END_REQ stops the SM's sends and throttles LD/ST issue until released",
          "[sm_bench][backpressure]") {
    constexpr uint32_t kStores = 16;
    core::SmConfig cfg;
    cfg.max_pending_requests = 4;
    SmBench b(cfg, 50);
    b.mem.hold();
    SmBench::Run& run = b.start(b.kernel(kStoreLines), 32, kA, 0, kStores);
    b.run_for(2000);

    // Only the first request reached the memory; three more are queued in the SM (the limit
    // counts queued requests too), so the fifth store cannot issue.
    REQUIRE(b.mem.requests().size() == 1);
    CHECK(b.mem.requests()[0].accept_cycle == RecordedRequest::kNever);
    CHECK_FALSE(run.done);
    CHECK(b.sm.busy());
    CHECK(b.stat("issue.stall_memory_throttle") > 0);
    const double issued_while_held = b.stat("warp_instructions");
    const uint64_t released = b.clock.cycle();

    b.mem.release();
    b.run();
    REQUIRE(run.done);
    CHECK(b.stat("warp_instructions") > issued_while_held);
    const auto& reqs = b.mem.requests();
    REQUIRE(reqs.size() == kStores);
    CHECK(reqs[0].accept_cycle >= released);
    CHECK(reqs[1].arrival_cycle >= reqs[0].accept_cycle);
    // The fifth store issued only once a response had freed an in-flight slot.
    CHECK(reqs[4].arrival_cycle > reqs[0].response_cycle);
    for (uint32_t i = 0; i < kStores; ++i) {
        INFO("store " << i);
        CHECK(reqs[i].command == tlm::TLM_WRITE_COMMAND);
        CHECK(reqs[i].access == sim::MemAccess::Write);
        CHECK(reqs[i].addr == kA + 128 * i);
        CHECK(reqs[i].sector_mask == 0xF);
        CHECK(b.global.load<uint32_t>(kA + 128 * i + 4 * 31) == kStores - i);
    }
    CHECK(b.mem.max_outstanding() <= cfg.max_pending_requests);
    CHECK(b.mem.violations().empty());
}

TEST_CASE("sm bench: END_REQ withheld by a script delays the next request by the hold time",
          "[sm_bench][backpressure]") {
    SmBench b(core::SmConfig(), 20);
    // Every third request waits 100 cycles for END_REQ.
    b.mem.set_hold([](const RecordedRequest&, size_t i) { return i % 3 == 0 ? uint64_t{100} : uint64_t{0}; });
    SmBench::Run& run = b.start(b.kernel(kStoreLines), 32, kA, 0, 7);
    b.run();
    REQUIRE(run.done);
    const auto& reqs = b.mem.requests();
    REQUIRE(reqs.size() == 7);
    for (size_t i = 0; i < reqs.size(); ++i) {
        INFO("request " << i);
        if (i % 3 == 0) {
            CHECK(reqs[i].accept_cycle == reqs[i].arrival_cycle + 100);
            if (i + 1 < reqs.size()) CHECK(reqs[i + 1].arrival_cycle > reqs[i].accept_cycle);
        } else {
            CHECK(reqs[i].accept_cycle == reqs[i].arrival_cycle);
        }
        CHECK(reqs[i].response_cycle == reqs[i].accept_cycle + 20);
    }
    CHECK(b.mem.violations().empty());
}

TEST_CASE("sm bench: the SM keeps at most max_pending_requests requests at the memory", "[sm_bench][backpressure]") {
    core::SmConfig cfg;
    cfg.max_pending_requests = 6;
    SmBench b(cfg, 400);
    SmBench::Run& run = b.start(b.kernel(kStoreLines), 64, kA, 0, 24);
    b.run();
    REQUIRE(run.done);
    CHECK(b.mem.requests().size() == 48);  // two warps, 24 lines each
    CHECK(b.mem.max_outstanding() == cfg.max_pending_requests);
    CHECK(b.stat("issue.stall_memory_throttle") > 0);
    CHECK(b.mem.violations().empty());
}

TEST_CASE("sm bench: responses in reverse order still complete every warp with correct results",
          "[sm_bench][ordering]") {
    SmBench b(core::SmConfig(), 0);
    // Within each group of eight requests, the first is answered last.
    b.mem.set_latency([](const RecordedRequest&, size_t i) { return uint64_t{40} + 30 * (7 - i % 8); });
    constexpr uint32_t kThreads = 256, kStride = 16;  // eight warps, four lines per warp access
    for (uint32_t i = 0; i < kThreads; ++i) b.global.store<float>(kA + i * kStride, static_cast<float>(i));
    SmBench::Run& run = b.start(b.kernel(kStridedCopy), kThreads, kA, kB, kStride);
    b.run();
    REQUIRE(run.done);

    const auto& order = b.mem.response_order();
    REQUIRE(order.size() == 2 * kThreads * kStride / 128);
    size_t inversions = 0;
    for (size_t i = 1; i < order.size(); ++i) inversions += order[i] < order[i - 1];
    CHECK(inversions > order.size() / 4);  // really out of order
    CHECK(b.mem.outstanding() == 0);
    CHECK(b.mem.violations().empty());
    CHECK(b.stat("ctas_completed") == 1);
    CHECK_FALSE(b.sm.busy());
    for (uint32_t i = 0; i < kThreads; ++i) CHECK(b.global.load<float>(kB + i * kStride) == static_cast<float>(i) + 1.0f);
}

TEST_CASE("sm bench: a multi-line load's consumer issues after the last line's response, not the first",
          "[sm_bench][ordering]") {
    SmBench b(core::SmConfig(), 0);
    IssueLog log;
    b.sm.set_observer(&log);
    // A 32-byte stride spreads one warp's load over 8 lines; line i is answered after
    // 400 - 40 i cycles, so the first line sent comes back last.
    b.mem.set_latency([](const RecordedRequest& r, size_t i) {
        return r.access == sim::MemAccess::Read ? uint64_t{400} - 40 * i : uint64_t{10};
    });
    SmBench::Run& run = b.start(b.kernel(kStridedCopy), 32, kA, kB, 32);
    b.run();
    REQUIRE(run.done);

    const auto reads = b.mem.requests(sim::MemAccess::Read);
    REQUIRE(reads.size() == 8);
    uint64_t first_response = RecordedRequest::kNever, last_response = 0;
    for (const RecordedRequest& r : reads) {
        first_response = std::min(first_response, r.response_cycle);
        last_response = std::max(last_response, r.response_cycle);
    }
    CHECK(last_response == reads[0].response_cycle);
    CHECK(first_response == reads[7].response_cycle);
    const uint64_t consumer = log.first("add.f32");
    INFO("responses from " << first_response << " to " << last_response << ", consumer issued at " << consumer);
    CHECK(consumer > last_response);
    CHECK(consumer <= last_response + 10);
}

TEST_CASE("sm bench: an idle SM is not ticked and a waiting SM sleeps through memory latency", "[sm_bench][sleep]") {
    constexpr uint64_t kLatency = 3000;
    constexpr uint32_t kN = 4;
    SmBench b(core::SmConfig(), kLatency);
    const core::Kernel& k = b.kernel(kPointerChase);
    build_chain(b, kA, kN);

    b.run_for(10000);  // nothing launched
    CHECK(b.clock.ticks() == 0);
    CHECK(b.clock.busy_edges() == 0);

    SmBench::Run& run = b.start(k, 1, kA, kB, kN);
    b.run();
    REQUIRE(run.done);
    INFO("kernel cycles " << run.cycles() << ", busy edges " << b.clock.busy_edges() << ", ticks "
                          << b.clock.ticks());
    CHECK(run.cycles() > (kN + 1) * kLatency);
    // The SM works for a few cycles around each response; it is not ticked while it waits.
    CHECK(b.clock.busy_edges() < 200);
    // Yet every cycle with the CTA resident is an active cycle, slept or ticked.
    CHECK(b.stat("active_cycles") == static_cast<double>(run.cycles()));

    const uint64_t ticks = b.clock.ticks();
    b.run_for(10000);  // finished: nothing ticks again
    CHECK(b.clock.ticks() == ticks);
}
