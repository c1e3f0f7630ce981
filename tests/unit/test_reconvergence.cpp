// SPDX-License-Identifier: Apache-2.0
// Post-dominator analysis: the reconvergence PC of branches in real and hand-written PTX.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "core/reconvergence.h"
#include "workloads/ptx_parser.h"

using namespace stacksim;

namespace {

const char* const kIfElse = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry k(.param .u32 k_param_0)
{
	.reg .pred %p<3>;
	.reg .b32 %r<6>;
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 16;
	@%p1 bra $THEN;
	add.s32 %r2, %r1, 1;
	setp.lt.u32 %p2, %r1, 24;
	@%p2 bra $INNER_JOIN;
	add.s32 %r2, %r2, 1;
$INNER_JOIN:
	bra.uni $JOIN;
$THEN:
	add.s32 %r2, %r1, 2;
$JOIN:
	add.s32 %r3, %r2, 1;
	@%p1 bra $EXIT;
	add.s32 %r4, %r3, 1;
$EXIT:
	ret;
}
)";

uint32_t index_of(const core::Kernel& k, const std::string& text_start, int occurrence = 0) {
    for (uint32_t i = 0; i < k.code.size(); ++i)
        if (k.code[i].text.rfind(text_start, 0) == 0 && occurrence-- == 0) return i;
    FAIL("no instruction starting with " << text_start);
    return 0;
}

}  // namespace

TEST_CASE("reconvergence: if/else with a nested if reconverges at the immediate post-dominators",
          "[reconvergence]") {
    core::Module m = workloads::parse_ptx(kIfElse, "ifelse.ptx");
    core::Kernel& k = m.kernels.at(0);
    core::compute_reconvergence(k);
    const uint32_t outer = index_of(k, "@%p1 bra");
    const uint32_t inner = index_of(k, "@%p2 bra");
    const uint32_t uni = index_of(k, "bra.uni");
    const uint32_t join = index_of(k, "add.s32 %r3");
    const uint32_t late = index_of(k, "@%p1 bra", 1);
    const uint32_t exit = index_of(k, "ret");
    CHECK(k.code[outer].reconv_pc == join);
    CHECK(k.code[inner].reconv_pc == uni);  // $INNER_JOIN is the bra.uni
    CHECK(k.code[late].reconv_pc == exit);
    CHECK(k.code[uni].target == join);
}

TEST_CASE("reconvergence: CFG blocks and the virtual exit", "[reconvergence]") {
    core::Module m = workloads::parse_ptx(kIfElse, "ifelse.ptx");
    core::ControlFlowGraph g = core::build_cfg(m.kernels.at(0));
    // Blocks: entry, else, inner-then, inner-join, then, join, late-body, exit.
    CHECK(g.start.size() == 8);
    std::vector<int32_t> ipdom = core::immediate_post_dominators(g);
    CHECK(ipdom.back() == -1);  // the ret block is post-dominated only by the exit
    CHECK(ipdom[0] == 5);       // entry -> join block
}

TEST_CASE("reconvergence: every branch of the library's divergence kernel gets one", "[reconvergence]") {
    std::string path = std::string(STACKSIM_SOURCE_DIR) + "/workloads/kernels/divergence.ptx";
    std::ifstream in(path);
    REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    core::Module m = workloads::parse_ptx(ss.str(), "divergence.ptx");
    core::Kernel& k = m.kernels.at(0);
    core::compute_reconvergence(k);
    int branches = 0, reconverging = 0;
    for (uint32_t i = 0; i < k.code.size(); ++i) {
        const auto& in_ = k.code[i];
        if (in_.control() != core::ControlKind::Branch) continue;
        ++branches;
        if (in_.reconv_pc != core::kNoTarget) {
            ++reconverging;
            CHECK(in_.reconv_pc < k.code.size());
            CHECK(in_.reconv_pc != i);
        }
    }
    CHECK(branches >= 4);
    CHECK(reconverging >= 3);
}
