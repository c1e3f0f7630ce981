// SPDX-License-Identifier: Apache-2.0
// Module-scope .global/.const variables: declarations, initialisers, linkage and the
// relocations of the operands that take their addresses.
#include "tests/unit/ptx_test_util.h"

using namespace stacksim;

TEST_CASE("ptx module data: variables with initialisers, alignment, vectors and linkage", "[ptx][module_data]") {
    const char* const text = R"(.version 8.8
.target sm_75
.address_size 64
.extern .global .align 16 .b8 late[];
.const .align 4 .b8 c_tab[8] = {1, 2, 3, 4};
.visible .global .align 4 .u32 counter;
.weak .global .align 8 .f64 half_one = 0d3FE0000000000000;
.global .align 4 .f32 floats[2] = {1.5, 0f40000000};
.global .align 16 .v4 .s16 vec = {-1, 2, -3, 4};
.global .align 2 .b16 grid[2][2] = {{1, 2}, {3, 4}};
.global .align 16 .b8 late[4] = {9, 8, 7, 6};
.global .align 4 .b8 unused[4096];
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<3>;
	mov.u64 %rd1, counter;
	ld.const.u32 %r1, [c_tab+4];
	ld.global.u32 %r2, [late];
	st.global.u32 [%rd1], %r1;
	ret;
}
)";
    core::Module m = workloads::parse_ptx(text, "data.ptx");
    REQUIRE(m.variables.size() == 8);
    const auto& late = m.variables[0];
    CHECK(late.name == "late");
    CHECK_FALSE(late.is_extern);  // defined later in the module
    CHECK(late.bytes == 4);
    CHECK(late.align == 16);
    CHECK(late.init == std::vector<uint8_t>{9, 8, 7, 6});
    const auto& c = m.variables[1];
    CHECK(c.space == core::StateSpace::Const);
    CHECK(c.bytes == 8);
    CHECK(c.init == std::vector<uint8_t>{1, 2, 3, 4});
    CHECK(m.variables[2].bytes == 4);
    CHECK(m.variables[2].init.empty());
    CHECK(m.variables[3].init == std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0xE0, 0x3F});
    CHECK(m.variables[4].init == std::vector<uint8_t>{0, 0, 0xC0, 0x3F, 0, 0, 0, 0x40});
    CHECK(m.variables[5].bytes == 8);
    CHECK(m.variables[5].init == std::vector<uint8_t>{0xFF, 0xFF, 2, 0, 0xFD, 0xFF, 4, 0});
    CHECK(m.variables[6].init == std::vector<uint8_t>{1, 0, 2, 0, 3, 0, 4, 0});
    CHECK(m.variables[7].bytes == 4096);

    const core::Kernel& k = m.kernels.at(0);
    REQUIRE(k.relocations.size() == 3);  // unused has none: it costs nothing at load
    CHECK(k.relocations[0].variable == 2);
    CHECK(k.code[k.relocations[0].inst].src[k.relocations[0].slot].imm == 0);
    CHECK(k.relocations[1].variable == 1);
    CHECK(k.code[k.relocations[1].inst].src[k.relocations[1].slot].imm == 4);  // the offset stays
    CHECK(k.code[k.relocations[1].inst].space == core::StateSpace::Const);
    CHECK(k.relocations[2].variable == 0);
}
