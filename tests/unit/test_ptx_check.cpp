// SPDX-License-Identifier: Apache-2.0
// The PTX front end's collect mode (check_ptx), the CUDA-feature classification of problems,
// .loc/.file source positions and the register-pressure estimate.
#include <string>

#include "core/register_pressure.h"
#include "tests/unit/ptx_test_util.h"
#include "workloads/ptx_support.h"

using namespace stacksim;

namespace {

const char* const kMany = R"(.version 8.8
.target sm_75
.address_size 64
.extern .func (.param .b32 func_retval0) vprintf
(
	.param .b64 vprintf_param_0,
	.param .b64 vprintf_param_1
)
;
.const .align 4 .b8 c_tab[8];
.global .align 8 .u64 fptr[1] = {twice};
.func (.param .b32 r) twice(.param .b32 a)
{
	.reg .b32 %r<3>;
	ld.param.b32 %r1, [a];
	add.s32 %r2, %r1, %r1;
	st.param.b32 [r], %r2;
	ret;
}
.visible .entry k(.param .u64 out)
{
	.local .align 4 .b8 __local_depot0[40];
	.reg .b32 %r<5>;
	.reg .b64 %rd<5>;
	mov.u64 %rd1, __local_depot0;
	ld.const.u32 %r1, [c_tab];
	pmevent 1;
	{
	.reg .b32 %inner;
	mov.u32 %inner, %pm0;
	}
	ld.param.u64 %rd2, [out];
	st.global.u32 [%rd2], %r1;
	ret;
}
.visible .entry clean(.param .u64 out)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	st.global.u32 [%rd1], %r1;
	ret;
}
)";

std::vector<std::string> constructs(const workloads::PtxCheck& c, const std::string& text) {
    std::vector<std::string> lines{""};
    for (size_t b = 0, e; b < text.size(); b = e + 1) {
        e = text.find('\n', b);
        if (e == std::string::npos) e = text.size();
        lines.push_back(text.substr(b, e - b));
    }
    std::vector<std::string> out;
    for (const auto& p : c.problems)
        out.push_back(std::to_string(p.line()) + " " + workloads::classify_ptx_problem(p, lines.at(p.line())).construct);
    return out;
}

}  // namespace

TEST_CASE("check_ptx: recovers after each problem and lists them all in order", "[ptx][check]") {
    const workloads::PtxCheck c = workloads::check_ptx(kMany, "many.ptx");
    // vprintf, .func and .param (calls) are supported; a function pointer in an initialiser
    // before the function's declaration is not.
    const std::vector<std::string> want = {"11 address initialiser", "27 pmevent", "30 special register %pm0"};
    CHECK(constructs(c, kMany) == want);
    REQUIRE(c.module.kernels.size() == 2);
    CHECK(c.module.kernels[0].name == "k");
    CHECK_FALSE(c.kernel_clean[0]);
    CHECK(c.module.kernels[0].local_bytes == 40);
    CHECK(c.module.kernels[1].name == "clean");
    CHECK(c.kernel_clean[1]);
    // parse_ptx still stops at the first problem.
    CHECK_THROWS_AS(workloads::parse_ptx(kMany, "many.ptx"), workloads::PtxError);
}

TEST_CASE("check_ptx: a truncated module reports the end of file instead of looping", "[ptx][check]") {
    const std::string text = std::string(kMany).substr(0, std::string(kMany).find("ret;\n}\n.visible .entry clean"));
    const workloads::PtxCheck c = workloads::check_ptx(text, "cut.ptx");
    REQUIRE_FALSE(c.problems.empty());
    CHECK(c.problems.back().message().find("unexpected end of file") != std::string::npos);
    CHECK(c.module.kernels.empty());
}

TEST_CASE("PTX .loc/.file: each instruction keeps its CUDA file and line (innermost of an inlined call)",
          "[ptx][loc]") {
    const char* const text = R"(.version 8.8
.target sm_75
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	.loc	1 7 3
	ld.param.u64 %rd1, [out];
	.loc	2 107 3, function_name $L__info_string0, inlined_at 1 9 5
	mov.u32 %r1, %tid.x;
	.loc	1 10 1
	st.global.u32 [%rd1], %r1;
	ret;
}
	.file	1 "/src/kernel.cu"
	.file	2 "/cuda/include/sm_30_intrinsics.hpp", 1700000000, 1234
)";
    core::Module m = workloads::parse_ptx(text, "loc.ptx");
    const core::Kernel& k = m.kernels.at(0);
    REQUIRE(k.source_files.size() == 3);
    CHECK(k.source_files[1] == "/src/kernel.cu");
    CHECK(k.source_files[2] == "/cuda/include/sm_30_intrinsics.hpp");
    REQUIRE(k.code.size() == 4);
    CHECK((k.code[0].src_file == 1 && k.code[0].src_line == 7));
    CHECK((k.code[1].src_file == 2 && k.code[1].src_line == 107));
    CHECK((k.code[2].src_file == 1 && k.code[2].src_line == 10));
    CHECK((k.code[3].src_file == 1 && k.code[3].src_line == 10));
    CHECK(k.code[0].line == 9);  // the PTX line stays the PTX line
}

TEST_CASE("max_live_registers: 64-bit values count two, predicates none, dead values free their slot",
          "[ptx][registers]") {
    // %rd1 (2 slots) + %r1 + %r2 live together before the add (%r2 dies there as %r3 is born);
    // %p1, live meanwhile, takes no slot.
    core::Kernel k = test::parse_snippet(R"(
    ld.param.u64 %rd1, [p0];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ntid.x;
    setp.lt.u32 %p1, %r1, 5;
    add.s32 %r3, %r1, %r2;
    st.global.u32 [%rd1], %r3;
    @%p1 st.global.u32 [%rd1+4], %r1;
    ret;
)");
    CHECK(core::max_live_registers(k) == 4);
}
