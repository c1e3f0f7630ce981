// SPDX-License-Identifier: Apache-2.0
// Timing effects of the SM's mechanisms on crafted kernels (run in this process).
#include <catch2/catch.hpp>

#include <cstdio>
#include <set>

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/instruction.h"
#include "tests/system/sim_harness.h"

using namespace stacksim;
using stacksim::test::HarnessKernel;
using stacksim::test::run_kernel;

namespace {

const char* const kBankKernel = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry bank(.param .u32 bank_param_0, .param .u32 bank_param_1)
{
	.reg .pred %p<2>;
	.reg .b32 %r<20>;
	.shared .align 4 .b8 buf[32768];
	ld.param.u32 %r1, [bank_param_0];
	ld.param.u32 %r2, [bank_param_1];
	mov.u32 %r3, %tid.x;
	and.b32 %r3, %r3, 31;
	mul.lo.s32 %r4, %r3, %r1;
	mov.u32 %r5, buf;
	add.s32 %r6, %r5, %r4;
	mov.u32 %r7, 0;
$LOOP:
	ld.shared.u32 %r8, [%r6];
	ld.shared.u32 %r9, [%r6];
	ld.shared.u32 %r11, [%r6];
	ld.shared.u32 %r12, [%r6];
	add.s32 %r7, %r7, 1;
	setp.lt.u32 %p1, %r7, %r2;
	@%p1 bra $LOOP;
	ret;
}
)";

uint64_t bank_cycles(uint32_t stride_bytes, uint32_t iterations) {
    HarnessKernel k{kBankKernel, "bank", {1, 1, 1}, {1024, 1, 1},
                    [=](workloads::HostApi&) { return workloads::LaunchArgs().u32(stride_bytes).u32(iterations); }};
    // A wide front end, so that the LD/ST unit, not fetch or issue, limits the loop.
    return run_kernel(k, "small", {"gpu.sm.ibuffer_entries=8", "gpu.sm.fetch_width=8", "gpu.sm.schedulers=4"})
        .kernel_cycles;
}

}  // namespace

// SystemC elaborates once per process, so each measurement runs in a forked child.
TEST_CASE("timing: a 32-way shared-memory bank conflict costs about 32 conflict-free accesses", "[timing][shared]") {
    // Cycles per loop iteration (4 shared loads per warp, 32 warps) from two trip counts.
    auto measure = [](uint32_t stride, uint32_t iters) {
        return test::in_child([=] { return std::vector<double>{static_cast<double>(bank_cycles(stride, iters))}; })[0];
    };
    double free_slope = (measure(4, 64) - measure(4, 32)) / 32.0;
    double conflict_slope = (measure(128, 64) - measure(128, 32)) / 32.0;
    INFO("cycles per iteration: conflict-free " << free_slope << ", 32-way " << conflict_slope);
    CHECK(conflict_slope / free_slope > 24.0);
    CHECK(conflict_slope / free_slope < 34.0);
}

namespace {

const char* const kStraightLine = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry straight()
{
	.reg .b32 %r<16>;
	mov.u32 %r1, %tid.x;
	add.s32 %r2, %r1, 1;
	add.s32 %r3, %r1, 2;
	add.s32 %r4, %r1, 3;
	add.s32 %r5, %r1, 4;
	add.s32 %r6, %r1, 5;
	add.s32 %r7, %r1, 6;
	add.s32 %r8, %r1, 7;
	add.s32 %r9, %r1, 8;
	add.s32 %r10, %r2, %r3;
	ret;
}
)";

/// Records which warp issued, in order.
struct IssueOrder : core::SmObserver {
    std::vector<uint32_t> warps;
    bool watches(uint32_t sm, uint32_t) const override { return sm == 0; }
    void on_event(const core::SmEvent& e) override {
        if (e.kind == core::SmEventKind::Issue) warps.push_back(e.warp);
    }
};

/// Warp slots in issue order for the straight-line kernel on one scheduler, `warps` warps.
std::vector<double> issue_order(const std::string& policy, uint32_t warps) {
    return test::in_child([=] {
        IssueOrder order;
        HarnessKernel k{kStraightLine, "straight", {1, 1, 1}, {32 * warps, 1, 1}, {}};
        run_kernel(k, "small",
                   {"gpu.sm.schedulers=1", "gpu.sm.ibuffer_entries=16", "gpu.sm.fetch_width=16",
                    "gpu.sm.warp_scheduler=" + policy},
                   &order);
        return std::vector<double>(order.warps.begin(), order.warps.end());
    });
}

size_t switches(const std::vector<double>& order) {
    size_t n = 0;
    for (size_t i = 1; i < order.size(); ++i) n += order[i] != order[i - 1];
    return n;
}

}  // namespace

TEST_CASE("timing: GTO keeps issuing one warp until it stalls, LRR rotates", "[timing][scheduler]") {
    // 4 warps, 11 instructions each, on one scheduler with a deep I-buffer: LRR switches warp
    // on nearly every issue, GTO only when the greedy warp runs out of ready instructions.
    size_t lrr = switches(issue_order("lrr", 4));
    size_t gto = switches(issue_order("gto", 4));
    INFO("warp switches between consecutive issues: lrr " << lrr << ", gto " << gto);
    CHECK(lrr >= 30);
    CHECK(gto * 3 <= lrr);
}

TEST_CASE("timing: two-level scheduling keeps issuing from an active set of four warps", "[timing][scheduler]") {
    // 16 ready warps on one scheduler, no long-latency loads: LRR touches all of them in its
    // first 32 issues, two-level only the four of its active set.
    auto distinct = [](const std::vector<double>& order) {
        std::set<double> s(order.begin(), order.begin() + std::min<size_t>(32, order.size()));
        return s.size();
    };
    CHECK(distinct(issue_order("lrr", 16)) == 16);
    CHECK(distinct(issue_order("two_level", 16)) == 4);
}

TEST_CASE("timing: oldest-first finishes the oldest warp first, LRR does not", "[timing][scheduler]") {
    auto last_issue_of = [](const std::vector<double>& order, double warp) {
        size_t last = 0;
        for (size_t i = 0; i < order.size(); ++i)
            if (order[i] == warp) last = i;
        return last;
    };
    auto oldest = issue_order("oldest", 4);
    auto lrr = issue_order("lrr", 4);
    for (double w : {1.0, 2.0, 3.0}) CHECK(last_issue_of(oldest, 0) < last_issue_of(oldest, w));
    CHECK(last_issue_of(lrr, 0) > last_issue_of(lrr, 1) - 4);  // LRR interleaves to the end
}

namespace {
// Each warp reads its own 8 lines (1 KB) over and over: 32 warps need 256 lines, twice a
// 16 KB L1, so with every warp running the lines are evicted before they are reused.
const char* const kThrash = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry thrash(.param .u64 thrash_param_0, .param .u32 thrash_param_1)
{
	.reg .pred %p<3>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [thrash_param_0];
	ld.param.u32 %r1, [thrash_param_1];
	mov.u32 %r2, %tid.x;
	shr.u32 %r3, %r2, 5;
	and.b32 %r4, %r2, 31;
	shl.b32 %r5, %r3, 10;
	shl.b32 %r6, %r4, 2;
	add.s32 %r7, %r5, %r6;
	cvt.u64.u32 %rd2, %r7;
	add.s64 %rd3, %rd1, %rd2;
	mov.u32 %r8, 0;
	mov.u32 %r10, 0;
$PASS:
	mov.u32 %r9, 0;
$LINE:
	mul.wide.u32 %rd4, %r9, 128;
	add.s64 %rd5, %rd3, %rd4;
	ld.global.u32 %r11, [%rd5];
	add.s32 %r10, %r10, %r11;
	add.s32 %r9, %r9, 1;
	setp.lt.u32 %p1, %r9, 8;
	@%p1 bra $LINE;
	add.s32 %r8, %r8, 1;
	setp.lt.u32 %p2, %r8, %r1;
	@%p2 bra $PASS;
	ret;
}
)";

std::vector<double> thrash(const std::string& policy) {
    return test::in_child([=] {
        HarnessKernel k{kThrash, "thrash", {1, 1, 1}, {1024, 1, 1}, [](workloads::HostApi& host) {
                            return workloads::LaunchArgs().ptr(host.malloc(32 * 1024)).u32(16);
                        }};
        auto r = run_kernel(k, "small", {"gpu.sm.warp_scheduler=" + policy, "gpu.l1.size_bytes=16384"});
        return std::vector<double>{r.stats.at("gpu.sm0_l1.hit_rate"), r.stats.at("gpu.sm0_l1.lost_locality"),
                                   static_cast<double>(r.kernel_cycles)};
    });
}
}  // namespace

TEST_CASE("timing: CCWS throttles warps that thrash the L1 and raises its hit rate", "[timing][scheduler][l1]") {
    auto lrr = thrash("lrr");
    auto ccws = thrash("ccws");
    INFO("L1 hit rate: lrr " << lrr[0] << ", ccws " << ccws[0] << "; lost locality: lrr " << lrr[1]
                             << ", ccws " << ccws[1] << "; cycles: lrr " << lrr[2] << ", ccws " << ccws[2]);
    CHECK(lrr[1] > 100);              // the victim tags see the thrashing
    CHECK(ccws[0] > lrr[0] + 0.15);   // throttling lets the survivors' lines stay
}
