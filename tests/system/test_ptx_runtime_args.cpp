// SPDX-License-Identifier: Apache-2.0
// What native CUDA programs need of the PTX front end and the device runtime, in hand-written
// PTX: a struct passed by value (LaunchArgs::aggregate), 32-bit .shared addresses that wrap (a
// negative offset folded into a register, as nvcc emits for Needleman-Wunsch), prefetch as a
// hint, and a __managed__ module variable (.attribute(.managed)).
#include <catch2/catch.hpp>

#include <cstring>

#include "tests/system/sim_harness.h"

using namespace stacksim;
using stacksim::test::HarnessKernel;
using stacksim::test::run_kernel;

namespace {

// out[tid] = p.a * tid + p.b + p.c + shared[(tid + 1) % 32], the shared word read as nvcc folds
// offsets: [%r + 68] with the 32-bit %r = 4 * index - 68, "negative" for the first indices.
const char* kPtx = R"(
.version 7.5
.target sm_75
.address_size 64
.global .attribute(.managed) .align 4 .u32 counter = 7;
.visible .entry args(.param .u64 out, .param .align 8 .b8 p[16])
{
    .reg .b32 %r<12>;
    .reg .b64 %rd<6>;
    .reg .f32 %f<4>;
    .shared .align 4 .b8 tile[128];
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [p];
    ld.param.u32 %r2, [p+4];
    ld.param.u64 %rd2, [p+8];
    cvta.to.global.u64 %rd3, %rd1;
    prefetch.global.L2 [%rd3];
    mov.u32 %r3, %tid.x;
    mov.u32 %r4, tile;
    shl.b32 %r5, %r3, 2;
    add.s32 %r6, %r4, %r5;
    st.shared.u32 [%r6], %r3;
    bar.sync 0;
    add.s32 %r7, %r3, 1;
    and.b32 %r7, %r7, 31;
    shl.b32 %r8, %r7, 2;
    add.s32 %r8, %r8, %r4;
    add.s32 %r8, %r8, -68;
    ld.shared.u32 %r9, [%r8+68];
    mad.lo.s32 %r10, %r1, %r3, %r2;
    add.s32 %r10, %r10, %r9;
    cvt.u32.u64 %r11, %rd2;
    add.s32 %r10, %r10, %r11;
    mul.wide.u32 %rd4, %r3, 4;
    add.s64 %rd5, %rd3, %rd4;
    st.global.u32 [%rd5], %r10;
    atom.global.add.u32 %r11, [counter], 1;
    ret;
}
)";

struct Params {
    int32_t a, b;
    uint64_t c;
};

}  // namespace

TEST_CASE("kernels: a struct argument by value with wrapping shared addresses and prefetch and a managed variable",
          "[system][cudart]") {
    std::vector<uint32_t> out;
    uint32_t counter = 0;
    HarnessKernel k{kPtx, "args", {1, 1, 1}, {32, 1, 1}, nullptr};
    workloads::DevPtr d_out = 0;
    k.setup = [&](workloads::HostApi& h) {
        d_out = h.malloc(32 * 4);
        const Params p{3, 1000, 5};
        return workloads::LaunchArgs().ptr(d_out).aggregate(&p, sizeof p);
    };
    k.after = [&](workloads::HostApi& h) {
        h.download(out, d_out, 32);
        const auto [addr, bytes] = h.symbol_range("test.ptx", "counter");
        (void)bytes;
        h.memcpy_d2h(&counter, addr, 4);
    };
    run_kernel(k);
    REQUIRE(out.size() == 32);
    for (uint32_t t = 0; t < 32; ++t) {
        INFO("thread " << t);
        CHECK(out[t] == 3 * t + 1000 + (t + 1) % 32 + 5);
    }
    CHECK(counter == 7 + 32);  // the initialiser, then one atomic add per thread
}
