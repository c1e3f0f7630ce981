// SPDX-License-Identifier: Apache-2.0
// Module-scope data end to end: nvcc's PTX for __constant__ and __device__ variables (one
// initialised) runs; the host writes and reads them by symbol and passes a symbol's address.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "tests/system/cli_runner.h"
#include "tests/system/sim_harness.h"

using namespace stacksim;

TEST_CASE("module data: __constant__/__device__ variables load with their initialisers and the host reaches "
          "them by symbol", "[ptx][module_data]") {
    const std::string ptx = test::read_file(std::string(STACKSIM_SOURCE_DIR) + "/tests/data/ptx/module_data.ptx");
    constexpr int n = 300;
    const float scale[4] = {0.5f, -2.0f, 3.0f, 1.25f};
    const int table[8] = {3, -1, 4, 1, -5, 9, 2, -6};
    const double offsets[2] = {0.5, -0.25};
    std::vector<float> in(n), out;
    for (int i = 0; i < n; ++i) in[i] = float(i % 17) - 8.0f;
    uint32_t count = 0, count_after = 0, unused_size = 0;
    uint64_t count_addr = 0;
    std::string range_error;

    test::HarnessKernel k;
    k.ptx = ptx;
    k.entry = "scale_table";
    k.grid = {3, 1, 1};
    k.block = {128, 1, 1};
    workloads::DevPtr d_in = 0, d_out = 0;
    k.setup = [&](workloads::HostApi& host) {
        host.load_ptx_source("test.ptx", ptx);
        host.copy_to_symbol("test.ptx", "c_scale", scale, sizeof scale);
        d_in = host.upload(in);
        d_out = host.malloc(n * sizeof(float));
        return workloads::LaunchArgs().ptr(d_in).ptr(d_out).i32(n);
    };
    const auto after = [&](workloads::HostApi& host) {
        host.download(out, d_out, n);
        host.copy_from_symbol(&count, "test.ptx", "d_count", 4);
        count_addr = host.symbol_address("test.ptx", "d_count");
        host.launch_ptx_source("test.ptx", ptx, "add_through_pointer", {1, 1, 1}, {64, 1, 1},
                               workloads::LaunchArgs().ptr(count_addr).i32(2));
        host.copy_from_symbol(&count_after, "test.ptx", "d_count", 4);
        unused_size = static_cast<uint32_t>(host.symbol_range("test.ptx", "d_unused").second);
        try {
            host.copy_to_symbol("test.ptx", "c_scale", scale, sizeof scale, 4);
        } catch (const std::exception& e) {
            range_error = e.what();
        }
    };
    test::run_kernel_then(k, after);

    REQUIRE(out.size() == size_t(n));
    uint32_t positive = 0;
    for (int i = 0; i < n; ++i) {
        const float v = std::fma(in[i], scale[i & 3], float(table[i & 7])) + float(offsets[i & 1]);
        INFO("i = " << i);
        CHECK(out[i] == v);
        positive += v > 0.f;
    }
    CHECK(count == positive);
    CHECK(count_after == positive + 64 * 2);
    CHECK(count_addr != 0);
    CHECK(unused_size == 8192);
    CHECK(range_error.find("exceeds symbol 'c_scale' (16 bytes)") != std::string::npos);
}

TEST_CASE("module data: an .extern variable without a definition is a clear error at load", "[ptx][module_data]") {
    const std::string ptx = R"(.version 8.8
.target sm_75
.address_size 64
.extern .global .align 4 .b8 elsewhere[];
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	mov.u64 %rd1, elsewhere;
	ld.global.u32 %r1, [%rd1];
	ret;
}
)";
    test::HarnessKernel k;
    k.ptx = ptx;
    k.entry = "k";
    k.grid = {1, 1, 1};
    k.block = {32, 1, 1};
    k.setup = [](workloads::HostApi&) { return workloads::LaunchArgs().ptr(0); };
    CHECK_THROWS_WITH(test::run_kernel(k), Catch::Contains("'elsewhere' is not defined in this module"));
}

namespace {

const char* const kConstRead = R"(.version 8.8
.target sm_75
.address_size 64
.const .align 4 .b32 tab[32] = {0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150,
    160, 170, 180, 190, 200, 210, 220, 230, 240, 250, 260, 270, 280, 290, 300, 310};
.visible .entry k(.param .u64 out, .param .u32 stride)
{
	.reg .b32 %r<5>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [stride];
	mov.u32 %r2, %tid.x;
	mul.lo.u32 %r3, %r2, %r1;
	cvt.u64.u32 %rd2, %r3;
	mov.u64 %rd3, tab;
	add.s64 %rd4, %rd3, %rd2;
	ld.const.u32 %r4, [%rd4];
	mul.wide.u32 %rd5, %r2, 4;
	add.s64 %rd5, %rd1, %rd5;
	st.global.u32 [%rd5], %r4;
	ret;
}
)";

/// Runs kConstRead with one warp reading tab[tid * stride / 4]: {correct lanes, constant
/// cache accesses (hits + misses), kernel cycles}.
std::vector<double> const_run(uint32_t stride) {
    return test::in_child([stride] {
        std::vector<uint32_t> out;
        workloads::DevPtr d_out = 0;
        test::HarnessKernel k;
        k.ptx = kConstRead;
        k.entry = "k";
        k.grid = {1, 1, 1};
        k.block = {32, 1, 1};
        k.setup = [&](workloads::HostApi& host) {
            d_out = host.malloc(32 * 4);
            return workloads::LaunchArgs().ptr(d_out).u32(stride);
        };
        const auto after = [&](workloads::HostApi& host) { host.download(out, d_out, 32); };
        const test::HarnessRun r = test::run_kernel_then(k, after);
        double correct = 0, accesses = 0;
        for (uint32_t t = 0; t < 32; ++t) correct += out.at(t) == 10 * (t * stride / 4);
        for (const auto& [name, v] : r.stats)
            if (name.find("const_cache.hits") != std::string::npos || name.find("const_cache.misses") != std::string::npos)
                accesses += v;
        return std::vector<double>{correct, accesses, double(r.kernel_cycles)};
    });
}

}  // namespace

TEST_CASE("module data: ld.const is one constant-cache access for a broadcast, one per distinct address otherwise",
          "[ptx][module_data][timing]") {
    const std::vector<double> broadcast = const_run(0), distinct = const_run(4);
    CHECK(broadcast[0] == 32);
    CHECK(distinct[0] == 32);
    // Both runs make the same two parameter reads; the ld.const adds 1 or 32 accesses.
    CHECK(distinct[1] - broadcast[1] == 31);
    CHECK(distinct[2] > broadcast[2]);
}
