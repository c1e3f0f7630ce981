// SPDX-License-Identifier: Apache-2.0
// Timing effects of the SM's mechanisms on crafted kernels (run in this process).
#include <catch2/catch.hpp>

#include <cstdio>

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
        int fds[2];
        REQUIRE(pipe(fds) == 0);
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            uint64_t c = 0;
            try {
                c = bank_cycles(stride, iters);
            } catch (const std::exception& e) {
                std::fprintf(stderr, "harness: %s\n", e.what());
                _exit(1);
            }
            ssize_t n = write(fds[1], &c, sizeof c);
            _exit(n == sizeof c ? 0 : 1);
        }
        close(fds[1]);
        uint64_t c = 0;
        REQUIRE(read(fds[0], &c, sizeof c) == sizeof c);
        int status = 0;
        waitpid(pid, &status, 0);
        close(fds[0]);
        return static_cast<double>(c);
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
    size_t switches() const {
        size_t n = 0;
        for (size_t i = 1; i < warps.size(); ++i) n += warps[i] != warps[i - 1];
        return n;
    }
};

size_t issue_switches(const std::string& policy) {
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        IssueOrder order;
        HarnessKernel k{kStraightLine, "straight", {1, 1, 1}, {128, 1, 1}, {}};
        try {
            run_kernel(k, "small",
                       {"gpu.sm.schedulers=1", "gpu.sm.ibuffer_entries=16", "gpu.sm.fetch_width=16",
                        "gpu.sm.warp_scheduler=" + policy},
                       &order);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "harness: %s\n", e.what());
            _exit(1);
        }
        uint64_t n = order.switches();
        ssize_t w = write(fds[1], &n, sizeof n);
        _exit(w == sizeof n ? 0 : 1);
    }
    close(fds[1]);
    uint64_t n = 0;
    REQUIRE(read(fds[0], &n, sizeof n) == sizeof n);
    int status = 0;
    waitpid(pid, &status, 0);
    close(fds[0]);
    return n;
}

}  // namespace

TEST_CASE("timing: GTO keeps issuing one warp until it stalls, LRR rotates", "[timing][scheduler]") {
    // 4 warps, 11 instructions each, on one scheduler with a deep I-buffer: LRR switches warp
    // on nearly every issue, GTO only when the greedy warp runs out of ready instructions.
    size_t lrr = issue_switches("lrr");
    size_t gto = issue_switches("gto");
    INFO("warp switches between consecutive issues: lrr " << lrr << ", gto " << gto);
    CHECK(lrr >= 30);
    CHECK(gto * 3 <= lrr);
}
