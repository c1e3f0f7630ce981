// SPDX-License-Identifier: Apache-2.0
// Tests of the PTX front end: nvcc output, directives, operand forms and error reporting.
#include <filesystem>
#include <string>

#include "core/op_table.h"
#include "tests/unit/ptx_test_util.h"

using namespace stacksim;
using core::DataType;
using core::Operand;
using workloads::PtxError;
using workloads::parse_ptx;

namespace {

const char* const kTestKernels[] = {"vec_add", "reduce_shared", "atomics", "float_math", "divergent", "vec_load"};

core::Module parse_data(const std::string& name) {
    return parse_ptx(test::read_source_file("tests/data/ptx/" + name + ".ptx"), name + ".ptx");
}

/// Asserts that parsing `text` throws a PtxError at `line` whose message contains `needle`.
void require_error(const std::string& text, uint32_t line, const std::string& needle) {
    try {
        parse_ptx(text, "bad.ptx");
        FAIL("no PtxError for: " << needle);
    } catch (const PtxError& e) {
        INFO(e.what());
        CHECK(e.line() == line);
        const std::string what = e.what();
        CHECK(what.rfind("bad.ptx:" + std::to_string(line) + ": ", 0) == 0);
        CHECK(what.find(needle) != std::string::npos);
        CHECK(what.find('\n') == std::string::npos);
        CHECK(what.back() == '\'');
    }
}

const core::Instruction& find_inst(const core::Kernel& k, const std::string& text_prefix) {
    for (const core::Instruction& in : k.code)
        if (in.text.rfind(text_prefix, 0) == 0) return in;
    FAIL("no instruction " << text_prefix);
    throw 0;
}

}  // namespace

TEST_CASE("ptx: parses nvcc output of every test kernel", "[ptx]") {
    for (const char* name : kTestKernels) {
        INFO(name);
        core::Module m = parse_data(name);
        REQUIRE(!m.kernels.empty());
        for (const core::Kernel& k : m.kernels) {
            CHECK(k.file == std::string(name) + ".ptx");
            CHECK(k.num_regs == k.reg_names.size());
            CHECK(!k.code.empty());
            CHECK(k.code.back().control() == core::ControlKind::Exit);
            for (const core::Instruction& in : k.code) {
                REQUIRE(in.info != nullptr);
                CHECK(in.reconv_pc == core::kNoTarget);
                CHECK(in.line > 0);
                CHECK(!in.text.empty());
                if (in.control() == core::ControlKind::Branch) CHECK(in.target < k.code.size());
                for (unsigned i = 0; i < in.num_reads; ++i) CHECK(in.reads[i] < k.num_regs);
                for (unsigned i = 0; i < in.num_writes; ++i) CHECK(in.writes[i] < k.num_regs);
            }
        }
    }
}

TEST_CASE("ptx: kernel signature, registers and shared layout", "[ptx]") {
    core::Module m = parse_data("reduce_shared");
    REQUIRE(m.kernels.size() == 2);
    const core::Kernel* k = m.find("reduce_shared");
    REQUIRE(k != nullptr);
    CHECK(m.find("nope") == nullptr);
    REQUIRE(k->params.size() == 3);
    CHECK(k->params[0].offset == 0);
    CHECK(k->params[1].offset == 8);
    CHECK(k->params[2].offset == 16);
    CHECK(k->params[2].type == DataType::U32);
    CHECK(k->param_bytes == 20);
    CHECK(k->static_shared_bytes == 1024);
    CHECK(k->num_regs == 6 + 24 + 7);  // %p<6>, %r<24>, %rd<7>
    CHECK(k->reg_names[0] == "%p0");
    const core::Instruction& ldp = find_inst(*k, "ld.param.u32");
    CHECK(ldp.space == core::StateSpace::Param);
    CHECK(ldp.src[0].imm == 16);
    CHECK(ldp.unit() == core::UnitClass::Alu);
    const core::Instruction& bar = find_inst(*k, "bar.sync");
    CHECK(bar.control() == core::ControlKind::Barrier);
    const core::Instruction& bra = find_inst(*k, "@%p1 bra");
    CHECK(bra.control() == core::ControlKind::Branch);
    CHECK(k->code[bra.target].text == "shl.b32 %r13, %r2, 2;");
    CHECK(bra.guard != core::kNoReg);
    CHECK(!bra.guard_negated);
    CHECK(find_inst(*k, "atom.global.add.u32").unit() == core::UnitClass::LdSt);
    CHECK(find_inst(*k, "ld.shared.u32 %r20").src[0].imm == 0);  // [buf] = offset 0

    // Kernel-local static shared (24 bytes) then the module's extern array aligned to 16.
    const core::Kernel* d = m.find("dyn_shared");
    REQUIRE(d != nullptr);
    CHECK(d->static_shared_bytes == 24);
    const core::Instruction& mv = find_inst(*d, "mov.u32 %r3, dbuf");
    CHECK(mv.src[0].kind == Operand::Kind::Imm);
    CHECK(mv.src[0].imm == 32);
}

TEST_CASE("ptx: vector, dual-destination and special-register operands", "[ptx]") {
    core::Module m = parse_data("vec_load");
    const core::Kernel& k = m.kernels.at(0);
    const core::Instruction& ld = find_inst(k, "ld.global.v4.f32");
    CHECK(ld.vec == 4);
    CHECK(ld.dst[0].kind == Operand::Kind::Vector);
    CHECK(ld.dst[0].vec_len == 4);
    CHECK(ld.num_writes == 4);
    const core::Instruction& st = find_inst(k, "st.global.v4.f32");
    CHECK(st.src[1].kind == Operand::Kind::Vector);
    CHECK(st.num_writes == 0);
    CHECK(st.num_reads == 5);
    const core::Instruction& nc = find_inst(k, "ld.global.nc.v2.s32");
    CHECK(nc.space == core::StateSpace::Global);
    const core::Instruction& sh = find_inst(k, "shfl.sync.down.b32");
    CHECK(sh.num_dst == 2);
    CHECK(sh.mode == uint8_t(core::ShflMode::Down));
    const core::Instruction& tid = find_inst(k, "mov.u32 %r3, %tid.x");
    CHECK(tid.src[0].kind == Operand::Kind::Special);
    CHECK(tid.src[0].special == core::SpecialReg::TidX);
    CHECK(find_inst(k, "vote.sync.ballot.b32").mode == uint8_t(core::VoteMode::Ballot));
}

TEST_CASE("ptx: literals, directives and comments", "[ptx]") {
    const std::string text = R"(// header comment
.version 8.0
.target sm_75 /* block
comment */
.address_size 64
.extern .shared .align 8 .b8 dyn[];
.visible .entry k(
    .param .align 8 .b8 k_param_0[12],
    .param .f64 k_param_1
)
.maxntid 128, 2, 1
.minnctapersm 2
{
    .reg .pred %p<2>;
    .reg .f32 %f<4>;
    .reg .f64 %fd<3>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<2>;
    .reg .b32 %x;
    .shared .align 4 .b8 s1[10];
    .shared .align 8 .f64 s2[2];
    .loc 1 2 3
    mov.f32 %f1, 0f3F800000;
    mov.f32 %f2, 1.5;
    mov.f32 %f3, -0f40000000;
    mov.f64 %fd1, 0d4008000000000000;
    mov.f64 %fd2, 2;
    mov.u32 %r1, 0xFFFFFFFF;
    mov.u32 %r2, -7;
    mov.u32 %x, s2;
    mov.u32 %r3, dyn;
    ld.param.u32 %r0, [k_param_0+8];
    ld.param.f64 %fd0, [k_param_1];
    mov.b32 %r0, 0f3F800000;
    { .reg .pred %p; setp.eq.s32 %p, %r0, 1; }
    { .reg .pred %p; setp.ne.s32 %p, %r0, 1; }
    ret;
}
)";
    core::Module m = parse_ptx(text, "lit.ptx");
    const core::Kernel& k = m.kernels.at(0);
    CHECK(k.max_threads_per_cta == 256);
    CHECK(k.params[1].offset == 16);
    CHECK(k.param_bytes == 24);
    CHECK(k.static_shared_bytes == 32);  // s1 at 0 (10 bytes), s2 at 16 (16 bytes)
    CHECK(k.num_regs == 2 + 4 + 3 + 4 + 2 + 1 + 2);
    CHECK(k.code[0].src[0].imm == 0x3F800000u);
    CHECK(k.code[1].src[0].imm == test::fbits(1.5f));
    CHECK(k.code[2].src[0].imm == 0xC0000000u);
    CHECK(k.code[3].src[0].imm == 0x4008000000000000ull);
    CHECK(k.code[4].src[0].imm == test::dbits(2.0));
    CHECK(k.code[5].src[0].imm == 0xFFFFFFFFu);
    CHECK(uint32_t(k.code[6].src[0].imm) == uint32_t(-7));
    CHECK(k.code[7].src[0].imm == 16);
    CHECK(k.code[8].src[0].imm == 32);
    CHECK(k.code[9].src[0].imm == 8);
    CHECK(k.code[10].src[0].imm == 16);
    CHECK(k.code[10].line == 33);
    CHECK(k.code[12].dst[0].reg != k.code[13].dst[0].reg);  // scoped %p
}

TEST_CASE("ptx: errors name the file, line and token", "[ptx]") {
    using test::snippet;
    const uint32_t L = test::kSnippetFirstLine;
    require_error(snippet("foo.b32 %r1, %r2;"), L, "unsupported instruction 'foo.b32'");
    require_error(snippet("mov.u32 %r1, 1;\nadd.s32 %r1, %r99, 1;"), L + 1, "undeclared register '%r99'");
    require_error(snippet("bra $L__nowhere;\nret;"), L, "unknown label '$L__nowhere'");
    require_error(snippet("add.s32 %r1, %r2;"), L, "wrong number of operands");
    require_error(snippet("add.s32 %r1, %r2, [%r3;"), L, "expected ']'");
    require_error(snippet("add.s32 %r1, %r2, , %r3;"), L, "expected an operand");
    require_error(snippet("add.s32 %r1, %r2 %r3;"), L, "expected ',' or ';'");
    require_error(snippet("add.zz.s32 %r1, %r2, %r3;"), L, "unsupported modifier .zz");
    require_error(snippet("add.rn.s32 %r1, %r2, %r3;"), L, "rounding modifier");
    require_error(snippet("mul.wide.f32 %f1, %f2, %f3;"), L, ".wide");
    require_error(snippet("add %r1, %r2, %r3;"), L, "missing type");
    require_error(snippet("setp.s32 %p1, %r2, %r3;"), L, "missing comparison");
    require_error(snippet("setp.ltu.s32 %p1, %r2, %r3;"), L, "unordered comparison");
    require_error(snippet("@%r1 bra L1;\nL1: ret;"), L, "guard is not a predicate");
    require_error(snippet("atom.local.add.u32 %r1, [%rd1], 1;"), L, "atomics on local memory");
    require_error(snippet("ld.global.v2.u32 {%r1, %r2, %r3}, [%rd1];"), L, "vector size");
    require_error(snippet("mov.u32 %r1, %pm0;"), L, "unsupported special register");
    require_error(snippet("mov.u32 %r1, 1.5;"), L, "float literal");
    require_error(snippet("mov.u32 %r1, 12abc;"), L, "malformed number '12abc'");
    require_error(snippet("call.uni foo, (%r1);"), L, "call to an undeclared function 'foo'");
    require_error(snippet("mov.u32 %r1, nosuchsym;"), L, "undeclared identifier 'nosuchsym'");
    require_error(snippet("ld.param.u32 %r1, [nosuch];"), L, "unknown parameter 'nosuch'");
    require_error(snippet(".local .align 4 .b8 buf[];"), L, "unsized .local array");
    require_error(snippet("L1:\nL1: ret;"), L + 1, "duplicate label");
    require_error(snippet("atom.global.s32 %r1, [%rd1], 1;"), L, "missing atomic operation");
    require_error(snippet("atom.global.cas.b32 %r1, [%rd1], 1;"), L, "wrong number of operands");
    require_error(".version 8.0\n.func foo()\n{\nret;\n}\n.func foo()\n{\nret;\n}\n", 6, "function defined twice: 'foo'");
    require_error(".version 8.0\n.func foo()\n;\n.visible .entry k()\n{\ncall.uni foo;\nret;\n}\n", 2,
                  "call to a function that has no body in this module (modules are not linked) 'foo'");
    require_error(".version 8.0\n.func g(.param .b32 a)\n{\n.reg .b32 %r<2>;\n.param .b32 p;\ncall.uni g, (%r1);\nret;\n}\n", 6,
                  "must be .param variables declared in the body, not '%r1'");
    require_error(".version 8.0\n.global .texref t;\n", 2, "unsupported texture/surface reference '.texref'");
    require_error(".version 8.0\n.global .align 8 .u64 fp[1] = {f};\n", 2, "an address in a variable's initializer");
    require_error(".version 8.0\n.global .u32 g = 1;\n.global .u32 g = 2;\n", 3, "defined twice");
    require_error(".version 8.0\n.global .b8 g[2] = {1, 2, 3};\n", 2, "more initializers than elements");
    require_error(".version 8.0\n/* never closed\n", 2, "unterminated comment");
    require_error(".version 8.0\n.visible .entry k()\n{\n.reg .b32 %r<2>;\nmov.u32 %r1, 1;\n", 6, "unexpected end of file");
    require_error(".visible .entry k()\n{\n.reg .b32 %r<2>;\nmov.u32 %r1, 1 #;\n}\n", 4, "unexpected character '#'");
}

TEST_CASE("ptx: truncated and mutated input never crashes or hangs", "[ptx]") {
    const std::string good = test::read_source_file("tests/data/ptx/vec_add.ptx");
    unsigned parsed = 0, rejected = 0;
    for (size_t cut = 0; cut < good.size(); cut += 3) {
        try {
            parse_ptx(good.substr(0, cut), "cut.ptx");
            ++parsed;
        } catch (const PtxError&) {
            ++rejected;
        }
    }
    const char junk[] = {';', ',', '[', ']', '{', '}', '%', '.', '@', '!', '-', '0', 'x', '|', ' ', '\n'};
    for (size_t pos = 0, j = 0; pos < good.size(); pos += 5, ++j) {
        std::string bad = good;
        bad[pos] = junk[j % sizeof(junk)];
        try {
            parse_ptx(bad, "mut.ptx");
            ++parsed;
        } catch (const PtxError&) {
            ++rejected;
        }
    }
    CHECK(rejected > 0);
    CHECK(parsed + rejected > 100);
}

TEST_CASE("ptx: kernel library PTX parses", "[ptx]") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(STACKSIM_SOURCE_DIR) / "workloads" / "kernels";
    unsigned files = 0;
    if (fs::exists(dir)) {
        for (const auto& e : fs::directory_iterator(dir)) {
            if (e.path().extension() != ".ptx") continue;
            INFO(e.path().filename().string());
            const std::string rel = "workloads/kernels/" + e.path().filename().string();
            core::Module m = parse_ptx(test::read_source_file(rel), e.path().filename().string());
            CHECK(!m.kernels.empty());
            ++files;
        }
    }
    SUCCEED("parsed " << files << " library files");
}
