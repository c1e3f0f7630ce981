// SPDX-License-Identifier: Apache-2.0
// Idempotence analysis of library PTX kernels and traces (which CTAs may be flushed).
#include <catch2/catch.hpp>

#include "core/idempotence.h"
#include "tests/unit/ptx_test_util.h"
#include "workloads/ptx_parser.h"

using namespace stacksim;

namespace {
const core::Kernel& kernel(const std::string& file, const std::string& name, core::Module& holder) {
    holder = workloads::parse_ptx(test::read_source_file("workloads/kernels/" + file + ".ptx"), file + ".ptx");
    const core::Kernel* k = holder.find(name);
    REQUIRE(k);
    return *k;
}
}  // namespace

TEST_CASE("idempotence: kernels that only write buffers they never read may be flushed", "[preemption]") {
    core::Module m;
    CHECK(core::is_idempotent(kernel("vecadd", "vecadd", m)));
    CHECK(kernel("vecadd", "vecadd", m).idempotent);  // the parser records it
    CHECK(core::is_idempotent(kernel("matmul", "matmul", m)));
    CHECK(core::is_idempotent(kernel("stencil2d", "stencil2d", m)));
}

TEST_CASE("idempotence: read-modify-write of a buffer or an atomic forbids flushing", "[preemption]") {
    core::Module m;
    CHECK_FALSE(core::is_idempotent(kernel("saxpy", "saxpy", m)));       // y = a*x + y
    CHECK_FALSE(core::is_idempotent(kernel("gemm", "gemm_kernel", m)));  // C = alpha A B + beta C
    CHECK_FALSE(core::is_idempotent(kernel("reduction", "reduction", m)));  // atomicAdd
}

TEST_CASE("idempotence: a trace whose stores hit a loaded line, or with an atomic, is not idempotent", "[preemption]") {
    core::Instruction ld, st;
    core::TraceKernel k;
    k.ctas.resize(1);
    k.ctas[0].warps.resize(1);
    core::WarpTrace& w = k.ctas[0].warps[0];
    w.addresses = {0x1000, 0x2000};
    core::TraceInstruction load{&ld, 0, 1, 0, 4, true, false, false};
    core::TraceInstruction store{&st, 8, 1, 1, 4, false, true, false};
    w.insts = {load, store};
    CHECK(core::is_idempotent(k));
    w.addresses[1] = 0x1010;  // same 128-byte line as the load
    CHECK_FALSE(core::is_idempotent(k));
    w.addresses[1] = 0x2000;
    w.insts[1].is_atomic = true;
    CHECK_FALSE(core::is_idempotent(k));
}
