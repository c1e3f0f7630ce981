// SPDX-License-Identifier: Apache-2.0
// A warp held by a far fault waits; the other warps of the SM keep issuing meanwhile.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "tests/system/sim_harness.h"

using namespace stacksim;
using stacksim::test::HarnessKernel;
using stacksim::test::in_child;
using stacksim::test::run_kernel;

namespace {

// Warp 0 loads and stores one word per lane of `buf` (a far fault in managed mode); the other
// warps only count to `iters` in registers.
const char* const kMixed = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry mixed(.param .u64 mixed_param_0, .param .u32 mixed_param_1)
{
	.reg .pred %p<3>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [mixed_param_0];
	ld.param.u32 %r1, [mixed_param_1];
	cvta.to.global.u64 %rd1, %rd1;
	mov.u32 %r2, %tid.x;
	setp.ge.u32 %p1, %r2, 32;
	@%p1 bra $COMPUTE;
	mul.wide.u32 %rd2, %r2, 4;
	add.s64 %rd3, %rd1, %rd2;
	ld.global.u32 %r3, [%rd3];
	add.s32 %r4, %r3, 1;
	st.global.u32 [%rd3], %r4;
	ret;
$COMPUTE:
	mov.u32 %r5, 0;
	mov.u32 %r6, 0;
$LOOP:
	add.s32 %r6, %r6, %r2;
	add.s32 %r5, %r5, 1;
	setp.lt.u32 %p2, %r5, %r1;
	@%p2 bra $LOOP;
	ret;
}
)";

/// Kernel cycles of one CTA of 8 warps with `iters` loop trips, in `mode`.
double kernel_cycles(const std::string& mode, uint32_t iters) {
    return in_child([=] {
        HarnessKernel k{kMixed, "mixed", {1, 1, 1}, {256, 1, 1}, [=](workloads::HostApi& host) {
                            const workloads::DevPtr buf = host.malloc(4096);
                            host.memset(buf, 0, 4096);
                            return workloads::LaunchArgs().ptr(buf).u32(iters);
                        }};
        return std::vector<double>{static_cast<double>(
            run_kernel(k, "small", {"uvm.mode=" + mode, "uvm.page_bytes=65536"}).kernel_cycles)};
    })[0];
}

}  // namespace

TEST_CASE("uvm: warps that do not fault keep issuing while another warp waits on a fault", "[uvm][timing]") {
    // In ideal mode the loop's cost shows in full; in managed mode warp 0's far fault (a 20 us
    // batch, about 20 K cycles at 1 GHz: the buffer, zeroed and never written by the host, is
    // populated without a transfer) hides it, because the counting warps run during the fault
    // instead of waiting with warp 0.
    const double ideal_short = kernel_cycles("ideal", 400), ideal_long = kernel_cycles("ideal", 800);
    const double managed_short = kernel_cycles("managed", 400), managed_long = kernel_cycles("managed", 800);
    INFO("ideal " << ideal_short << " -> " << ideal_long << ", managed " << managed_short << " -> " << managed_long);
    REQUIRE(ideal_long - ideal_short > 1000);
    REQUIRE(ideal_long < 20000);  // the loop is shorter than the fault
    CHECK(managed_short > 20000);
    CHECK(managed_long - managed_short < 0.1 * (ideal_long - ideal_short));
}

namespace {

/// Warp 0 of `kMixed` touches a 4 KB buffer the host filled with memcpy; the buffer comes
/// from malloc or malloc_managed. Returns kernel cycles, far faults, H2D PCIe bytes.
std::vector<double> mixed_allocation(const std::string& mode, bool managed) {
    return in_child([=] {
        HarnessKernel k{kMixed, "mixed", {1, 1, 1}, {64, 1, 1}, [=](workloads::HostApi& host) {
                            const workloads::DevPtr buf = managed ? host.malloc_managed(4096) : host.malloc(4096);
                            std::vector<uint32_t> init(1024, 7);
                            host.memcpy_h2d(buf, init.data(), 4096);
                            return workloads::LaunchArgs().ptr(buf).u32(1);
                        }};
        auto r = run_kernel(k, "small", {"uvm.mode=" + mode, "uvm.page_bytes=65536", "host.timed_copies=true"});
        return std::vector<double>{static_cast<double>(r.kernel_cycles), r.stats.at("gpu.gmmu.faults.far"),
                                   r.stats.at("gpu.pcie.h2d.bytes")};
    });
}

}  // namespace

TEST_CASE("uvm: malloc_managed pages on demand next to device allocations", "[uvm]") {
    // Device mode: malloc is device memory with an explicit PCIe copy; malloc_managed memory
    // is demand paged: memcpy writes the host's copy, and the kernel's first touch faults.
    const auto device = mixed_allocation("device", false);
    const auto managed = mixed_allocation("device", true);
    INFO("device: " << device[0] << " cycles, " << device[1] << " faults, " << device[2] << " B; managed: "
                    << managed[0] << " cycles, " << managed[1] << " faults, " << managed[2] << " B");
    CHECK(device[1] == 0);
    CHECK(device[2] == 4096);        // the programmer's copy
    CHECK(managed[1] >= 1);          // the first touch faults
    CHECK(managed[2] >= 4096);       // the page migrates on demand (at least the bytes used)
    CHECK(managed[0] > device[0] + 10000);  // and the kernel waits for it (20 us fault latency)
    // Ideal mode: managed memory costs nothing.
    const auto ideal = mixed_allocation("ideal", true);
    CHECK(ideal[1] == 0);
    CHECK(ideal[0] < device[0] + 1000);
}
