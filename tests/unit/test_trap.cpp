// SPDX-License-Identifier: Apache-2.0
// trap and brkpt (__trap(), __brkpt()): executing lanes stop the run with one clear message.
#include "tests/unit/ptx_test_util.h"

using namespace stacksim;

TEST_CASE("trap/brkpt: an executing lane fails with the PTX line, a lane guarded off passes", "[ptx][trap]") {
    test::WarpFixture f(R"(
mov.u32 %r1, %tid.x;
setp.eq.u32 %p1, %r1, 7;
@%p1 trap;
brkpt;
)");
    f.exec(0);
    f.exec(1);
    CHECK_THROWS_WITH(f.exec(2), Catch::Contains("t.ptx:" + std::to_string(test::kSnippetFirstLine + 3) +
                                                 ": trap: the kernel executed __trap() '@%p1 trap;'"));
    CHECK_NOTHROW(f.exec(2, 0x1));  // lane 0 only: the guard is false
    CHECK_THROWS_WITH(f.exec(3), Catch::Contains("brkpt: the kernel hit a breakpoint (__brkpt())"));
}

TEST_CASE("trap: the CUDA source line of a -lineinfo build is named", "[ptx][trap]") {
    core::Module m = workloads::parse_ptx(R"(.version 8.8
.target sm_75
.address_size 64
.visible .entry k()
{
	.loc 1 42 7
	trap;
}
.file 1 "k.cu"
)", "k.ptx");
    test::WarpFixture f("ret;");
    f.kernel = m.kernels.at(0);
    CHECK_THROWS_WITH(f.exec(0), Catch::Contains("k.ptx:7: trap: the kernel executed __trap() at CUDA source line 42"));
}
