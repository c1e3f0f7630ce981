// SPDX-License-Identifier: Apache-2.0
// Accel-Sim trace input: Accel-Sim's vectoradd trace, address compression, formats, opcodes, errors.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <unistd.h>

#include "core/trace_kernel.h"
#include "sim/error.h"
#include "workloads/accelsim_trace.h"
#include "workloads/sass_opcodes.h"
#include "workloads/trace_workload.h"
#include "tests/test_data.h"

using namespace stacksim;
using namespace stacksim::workloads;
using core::ControlKind;
using core::StateSpace;
using core::UnitClass;
namespace fs = std::filesystem;

namespace {

/// Accel-Sim's own vectoradd trace (third-party, ../shared): the tests of the real tracer's
/// output use it and report themselves skipped without it.
std::string real_trace() { return test::third_party_trace("accelsim/vectoradd-100-32/"); }

std::string slurp(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

/// This process's scratch directory, removed at exit.
struct TmpDir {
    fs::path path = fs::temp_directory_path() / ("stacksim_trace_test_" + std::to_string(::getpid()));
    ~TmpDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

/// Writes `text` to a file in this process's scratch directory and returns its path.
std::string write_tmp(const std::string& name, const std::string& text) {
    static TmpDir dir;
    fs::create_directories(dir.path);
    const fs::path p = dir.path / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
}

std::string header(unsigned tracer, unsigned binary, bool lineinfo, const std::string& block = "(64,1,1)") {
    std::ostringstream s;
    s << "-kernel name = synth\n-kernel id = 7\n-grid dim = (2,1,1)\n-block dim = " << block
      << "\n-shmem = 256\n-nregs = 16\n-binary version = " << binary
      << "\n-cuda stream id = 0\n-shmem base_addr = 0x00007f0000000000\n"
         "-local mem base_addr = 0x00007f0001000000\n-nvbit version = 1.5.5\n"
         "-accelsim tracer version = " << tracer << "\n-enable lineinfo = " << (lineinfo ? 1 : 0)
      << "\n\n#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
         "mem_width [adrrescompress?] [mem_addresses]\n\n";
    return s.str();
}

/// A one-CTA, one-warp trace body around `lines` (each line one instruction).
std::string body(const std::vector<std::string>& lines) {
    std::string s = "#BEGIN_TB\n\nthread block = 1,0,0\n\nwarp = 1\ninsts = " + std::to_string(lines.size()) + "\n";
    for (const std::string& l : lines) s += l + "\n";
    return s + "\n#END_TB\n";
}

const core::WarpTrace& only_warp(const core::TraceKernel& k) {
    REQUIRE(k.ctas.size() == 1);
    return k.ctas[0].warps.at(1);
}

std::vector<uint64_t> addrs(const core::WarpTrace& w, size_t i) {
    const core::TraceInstruction& t = w.insts.at(i);
    const unsigned n = static_cast<unsigned>(__builtin_popcount(t.active_mask));
    return {w.addresses.begin() + t.addr_index, w.addresses.begin() + t.addr_index + n};
}

class FakeHost : public HostApi {
public:
    std::vector<std::string> launched;
    std::vector<uint64_t> insts;
    DevPtr malloc(uint64_t) override { return 0; }
    void free(DevPtr) override {}
    void memcpy_h2d(DevPtr, const void*, uint64_t) override { FAIL("copy not expected"); }
    void memcpy_d2h(void*, DevPtr, uint64_t) override {}
    void memset(DevPtr, uint8_t, uint64_t) override {}
    void launch(const std::string&, const std::string&, Dim3, Dim3, const LaunchArgs&, uint32_t) override {}
    void launch_ptx_source(const std::string&, const std::string&, const std::string&, Dim3, Dim3,
                           const LaunchArgs&, uint32_t) override {}
    void launch_trace(const core::TraceKernel& k) override {
        launched.push_back(k.name);
        uint64_t n = 0;
        for (const auto& c : k.ctas)
            for (const auto& w : c.warps) n += w.insts.size();
        insts.push_back(n);
    }
};

}  // namespace

TEST_CASE("trace: real vectoradd kernel header, counts and addresses", "[trace]") {
    const std::string path = real_trace() + "kernel-1.traceg";
    auto k = read_traceg(path);
    CHECK(k->name == "_Z6vecAddIfEvPT_S1_S1_i");
    CHECK(k->grid == std::array<uint32_t, 3>{1, 1, 1});
    CHECK(k->block == std::array<uint32_t, 3>{1024, 1, 1});
    CHECK(k->regs_per_thread == 8);
    CHECK(k->binary_version == 61);
    CHECK(k->num_regs == kSassGprCount);
    REQUIRE(k->ctas.size() == 1);
    REQUIRE(k->ctas[0].warps.size() == 32);

    // Per-warp counts against the file's own "insts = N" lines.
    std::istringstream in(slurp(path));
    std::string line;
    std::vector<size_t> declared;
    while (std::getline(in, line))
        if (line.rfind("insts = ", 0) == 0) declared.push_back(std::stoul(line.substr(8)));
    REQUIRE(declared.size() == 32);
    size_t total = 0;
    for (size_t w = 0; w < 32; ++w) {
        CHECK(k->ctas[0].warps[w].insts.size() == declared[w]);
        total += k->ctas[0].warps[w].insts.size();
    }
    CHECK(total == 344);
    CHECK(k->static_insts.size() <= 30);  // deduplicated across warps (distinct PCs + variants)

    const core::WarpTrace& w1 = k->ctas[0].warps[1];
    const core::TraceInstruction& ldg = w1.insts[14];  // 0098 LDG.E.CG R4, R4 (base+stride)
    CHECK(ldg.pc == 0x98);
    CHECK(ldg.is_load);
    CHECK(ldg.access_bytes == 4);
    CHECK(ldg.inst->unit() == UnitClass::LdSt);
    CHECK(ldg.inst->space == StateSpace::Global);
    const auto a = addrs(w1, 14);
    REQUIRE(a.size() == 32);
    for (unsigned l = 0; l < 32; ++l) CHECK(a[l] == 0x7f2b2d500080ull + 4 * l);
    const core::TraceInstruction& stg = w1.insts[20];
    CHECK((stg.is_store && !stg.is_load && stg.inst->name() == std::string("STG")));
    CHECK(stg.inst->num_reads == 2);  // R6, R0

    const core::TraceInstruction& xmad = w1.insts[3];  // XMAD.MRG R3, R0, R255: RZ is no dependency
    CHECK(xmad.inst->num_writes == 1);
    CHECK(xmad.inst->writes[0] == 3);
    CHECK(xmad.inst->num_reads == 1);
    CHECK(xmad.inst->reads[0] == 0);
    CHECK(xmad.inst->text == "/*0028*/ XMAD.MRG R3, R0, R255");
    CHECK(xmad.inst == k->ctas[0].warps[7].insts[3].inst);  // shared static instruction

    const core::WarpTrace& w0 = k->ctas[0].warps[0];
    CHECK(w0.insts[8].active_mask == 0);  // EXIT taken by no lane
    CHECK(w0.insts[8].inst->control() == ControlKind::Exit);
    CHECK(w0.insts[8].inst->unit() == UnitClass::Control);
    CHECK(k->ctas[0].warps[3].insts[9].active_mask == 0xf);
    CHECK(k->ctas[0].warps[31].insts.size() == 9);
}

TEST_CASE("trace: streaming reader yields CTAs one at a time", "[trace]") {
    core::TraceKernel k;
    TracegReader r(real_trace() + "kernel-1.traceg", k);
    CHECK(r.header().tracer_version == 4);
    CHECK(r.header().shmem_base_addr == 0x00007f2b5a000000ull);
    CHECK(r.header().nvbit_version == "1.5.5");
    core::CtaTrace cta;
    REQUIRE(r.next_cta(cta));
    CHECK(cta.id == std::array<uint32_t, 3>{0, 0, 0});
    CHECK_FALSE(r.next_cta(cta));
    CHECK(r.instructions_read() == 344);
}

TEST_CASE("trace: address compression modes 0, 1, 2 on a partial mask", "[trace]") {
    // Active lanes 0, 1, 3 (mask 0xb).
    const std::string path = write_tmp("modes.traceg", header(4, 61, false) + body({
        "0010 0000000b 1 R4 LDG.E 1 R2 4 0 0x100 0x0000000000000200 0x300 ",
        "0018 0000000b 0 STG.E.64 2 R2 R4 8 1 0x1000 8 ",
        "0020 0000000b 1 R5 LDS.U8 1 R3 1 2 0x2000 4 -8 ",
        "0028 00000000 0 ATOMG.E.ADD 2 R2 R5 4 1 0x3000 4 ",
        "0030 ffffffff 0 EXIT 0 0 "}));
    auto k = read_traceg(path);
    const core::WarpTrace& w = only_warp(*k);
    REQUIRE(w.insts.size() == 5);
    CHECK(addrs(w, 0) == std::vector<uint64_t>{0x100, 0x200, 0x300});
    CHECK(addrs(w, 1) == std::vector<uint64_t>{0x1000, 0x1008, 0x1010});
    CHECK(w.insts[1].access_bytes == 8);  // .64 modifier
    CHECK(addrs(w, 2) == std::vector<uint64_t>{0x2000, 0x2004, 0x1ffc});
    CHECK(w.insts[2].access_bytes == 1);  // .U8
    CHECK(w.insts[2].inst->space == StateSpace::Shared);
    CHECK(w.insts[3].is_atomic);
    CHECK(addrs(w, 3).empty());
    CHECK(w.insts[4].addr_index == core::kNoAddresses);
    CHECK(k->ctas[0].id == std::array<uint32_t, 3>{1, 0, 0});
    CHECK(k->ctas[0].warps.size() == 2);
    CHECK(k->ctas[0].warps[0].insts.empty());
}

TEST_CASE("trace: tracer v3, v5 (immediate) and lineinfo formats", "[trace]") {
    const std::vector<std::string> v4 = {"0010 ffffffff 1 R1 MOV 0 0 ", "0018 ffffffff 0 EXIT 0 0 "};
    auto k3 = read_traceg(write_tmp("v3.traceg", header(3, 70, false) + body(v4)));
    CHECK(only_warp(*k3).insts.size() == 2);

    auto k5 = read_traceg(write_tmp("v5.traceg", header(5, 80, false) + body({
        "0010 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R2 0 0 ",
        "0020 ffffffff 0 BAR.SYNC 0 0 0 ",
        "0030 0000ffff 1 R3 LDG.E.128 1 R4 16 2 0x7000 16 16 16 16 16 16 16 16 16 16 16 16 16 16 16 -5 ",
        "0040 ffffffff 0 DEPBAR.LE 0 0 1 ",
        "0050 ffffffff 0 EXIT 0 0 0 "})));
    const core::WarpTrace& w5 = only_warp(*k5);
    REQUIRE(w5.insts.size() == 5);
    CHECK(w5.insts[1].inst->control() == ControlKind::Barrier);
    CHECK(w5.insts[2].access_bytes == 16);
    CHECK(addrs(w5, 2).back() == 0x7000 + 15 * 16);

    auto kl = read_traceg(write_tmp("li.traceg", header(4, 75, true) + body({
        "12 0010 ffffffff 1 R1 S2UR 0 0 ", "13 0018 ffffffff 1 R2 LDL 1 R1 4 1 0x7f0001000010 4 ",
        "14 0020 ffffffff 0 EXIT 0 0 "})));
    const core::WarpTrace& wl = only_warp(*kl);
    REQUIRE(wl.insts.size() == 3);
    CHECK(wl.insts[1].inst->space == StateSpace::Global);  // local reported as global
    CHECK(wl.insts[1].inst->line == 24);  // line in the .traceg file
}

TEST_CASE("trace: generic LD/ST resolve by the shared window, dedup splits by space", "[trace]") {
    auto k = read_traceg(write_tmp("generic.traceg", header(4, 70, false) + body({
        "0010 00000001 1 R1 LD.E 1 R2 4 0 0x7f0000000040 ",
        "0010 00000001 1 R1 LD.E 1 R2 4 0 0x0000000000001000 ",
        "0010 00000001 1 R1 LD.E 1 R2 4 0 0x7f0000000080 ",
        "0018 ffffffff 0 EXIT 0 0 "})));
    const core::WarpTrace& w = only_warp(*k);
    CHECK(w.insts[0].inst->space == StateSpace::Shared);
    CHECK(w.insts[1].inst->space == StateSpace::Global);
    CHECK(w.insts[0].inst == w.insts[2].inst);
    CHECK(w.insts[0].inst != w.insts[1].inst);
    CHECK(k->static_insts.size() == 3);
}

TEST_CASE("trace: opcode classes per architecture", "[trace]") {
    using F = SassFamily;
    auto unit = [](F f, const char* op) {
        const SassOpcode* o = find_sass_opcode(f, op);
        REQUIRE(o);
        return o->info->unit;
    };
    for (F f : {F::Pascal, F::Volta, F::Turing, F::Ampere, F::Hopper}) {
        CHECK(unit(f, "DFMA") == UnitClass::Fp64);
        CHECK(unit(f, "MUFU") == UnitClass::Sfu);
        CHECK(unit(f, "FFMA") == UnitClass::Alu);
        CHECK(unit(f, "LDC") == UnitClass::Alu);
        CHECK(unit(f, "NOP") == UnitClass::Alu);
        CHECK(find_sass_opcode(f, "BRA")->info->control == ControlKind::Branch);
        CHECK(find_sass_opcode(f, "BSSY")->info->control == ControlKind::None);
        CHECK(find_sass_opcode(f, "BAR")->info->control == ControlKind::Barrier);
        CHECK(find_sass_opcode(f, "EXIT")->info->control == ControlKind::Exit);
        CHECK(find_sass_opcode(f, "STS")->space == SassSpace::Shared);
        CHECK(find_sass_opcode(f, "RED")->mem == SassMemKind::Atomic);
        CHECK(find_sass_opcode(f, "LDG")->info->exec == nullptr);
    }
    CHECK(unit(F::Pascal, "XMAD") == UnitClass::Alu);
    CHECK(unit(F::Pascal, "DMNMX") == UnitClass::Fp64);
    CHECK(find_sass_opcode(F::Volta, "XMAD") == nullptr);
    CHECK(find_sass_opcode(F::Volta, "SHL") == nullptr);  // absent from volta_opcode.h
    CHECK(find_sass_opcode(F::Pascal, "ULDC") == nullptr);
    CHECK(unit(F::Turing, "ULDC") == UnitClass::Alu);
    CHECK(find_sass_opcode(F::Volta, "LDSM") == nullptr);
    CHECK(find_sass_opcode(F::Turing, "LDSM")->space == SassSpace::Shared);
    CHECK(find_sass_opcode(F::Turing, "LDGSTS") == nullptr);
    CHECK(find_sass_opcode(F::Ampere, "LDGSTS")->mem == SassMemKind::Load);
    CHECK(unit(F::Ampere, "HMMA") == UnitClass::Alu);
    CHECK(find_sass_opcode(F::Ampere, "LD")->space == SassSpace::Generic);
    // Hopper (hopper_opcode.h): Ampere's whole map plus the DPX and cluster additions
    CHECK(find_sass_opcode(F::Hopper, "LDGSTS")->mem == SassMemKind::Load);
    CHECK(unit(F::Hopper, "VIADD") == UnitClass::Alu);
    CHECK(unit(F::Hopper, "VIMNMX") == UnitClass::Alu);
    CHECK(unit(F::Hopper, "FENCE") == UnitClass::Alu);
    CHECK(find_sass_opcode(F::Hopper, "ELECT")->info->control == ControlKind::None);
    CHECK(unit(F::Hopper, "ELECT") == UnitClass::Control);
    CHECK(find_sass_opcode(F::Ampere, "VIADD") == nullptr);
    CHECK(find_sass_opcode(F::Hopper, "XMAD") == nullptr);
    CHECK(find_sass_opcode(F::Hopper, "UTMALDG") == nullptr);  // known, not modelled:
    CHECK(std::string(sass_unsupported_reason(F::Hopper, "UTMALDG")) == "TMA tensor load");
    CHECK(std::string(sass_unsupported_reason(F::Hopper, "HGMMA")) == "warpgroup MMA");
    CHECK(sass_unsupported_reason(F::Hopper, "FOO") == nullptr);
    CHECK(sass_unsupported_reason(F::Ampere, "UTMALDG") == nullptr);

    SassFamily f{};
    CHECK((sass_family_of(61, f) && f == F::Pascal));
    CHECK((sass_family_of(86, f) && f == F::Ampere));
    CHECK((sass_family_of(90, f) && f == F::Hopper));
    CHECK(std::string(sass_family_name(F::Hopper)) == "Hopper");
    CHECK_FALSE(sass_family_of(89, f));
    CHECK_FALSE(sass_family_of(100, f));
    CHECK(sass_width_from_modifiers("LDG.E.128.SYS") == 16);
    CHECK(sass_width_from_modifiers("LDS.U16") == 2);
    CHECK(sass_width_from_modifiers("LDG.E.S8") == 1);
    CHECK(sass_width_from_modifiers("LDG.E.CG") == 0);

    uint16_t id = 0;
    CHECK((parse_sass_register("R12", id) && id == 12));
    CHECK((parse_sass_register("R255", id) && id == core::kNoReg));
    CHECK((parse_sass_register("UR4", id) && id == kSassUniformBase + 4));
    CHECK((parse_sass_register("P2", id) && id == kSassPredBase + 2));
    CHECK((parse_sass_register("PT", id) && id == core::kNoReg));
    CHECK_FALSE(parse_sass_register("R256", id));
    CHECK_FALSE(parse_sass_register("IADD", id));
}

TEST_CASE("trace: errors name the file line and token", "[trace]") {
    const std::string h61 = header(4, 61, false);  // 16 lines; the body's first instruction is line 23
    auto err = [](const std::string& name, const std::string& text) {
        const std::string p = write_tmp(name, text);
        try {
            read_traceg(p);
        } catch (const sim::InputError& e) {
            std::string m = e.what();
            CHECK(m.find('\n') == std::string::npos);
            return m.substr(m.rfind('/') + 1);
        }
        FAIL("no error for " << name);
        return std::string();
    };
    const std::string exit_line = "00f0 ffffffff 0 EXIT 0 0 ";
    CHECK(err("op.traceg", h61 + body({"0010 ffffffff 1 R1 HMMA.884.F32 0 0 ", exit_line})) ==
          "op.traceg:23: unknown opcode for binary version 61 (Pascal) 'HMMA.884.F32'");
    CHECK(err("xmad.traceg", header(4, 70, false) + body({"0010 ffffffff 1 R1 XMAD 0 0 "})) ==
          "xmad.traceg:23: unknown opcode for binary version 70 (Volta) 'XMAD'");
    CHECK(err("delta.traceg", h61 + body({exit_line, "0010 00000007 1 R1 LDG.E 1 R2 4 2 0x100 4 4 4 "})) ==
          "delta.traceg:24: base+delta: expected a base and 2 deltas for 3 active lanes, found 4 tokens 'LDG.E'");
    CHECK(err("list.traceg", h61 + body({"0010 00000003 1 R1 LDG.E 1 R2 4 0 0x100 "})) ==
          "list.traceg:23: expected 2 addresses for 2 active lanes, found 1 'LDG.E'");
    CHECK(err("mask.traceg", h61 + body({"0010 fffffffff 0 EXIT 0 0 "})) ==
          "mask.traceg:23: bad active mask 'fffffffff'");
    CHECK(err("hex.traceg", h61 + body({"0010 00000001 1 R1 LDG.E 1 R2 4 0 0xZZ "})) ==
          "hex.traceg:23: bad address '0xZZ'");
    CHECK(err("reg.traceg", h61 + body({"0010 ffffffff 2 R1 MOV 0 0 "})) == "reg.traceg:23: bad destination register 'MOV'");
    std::string full = h61 + body({exit_line});
    CHECK(err("trunc.traceg", full.substr(0, full.size() - 9)) == "trunc.traceg:23: truncated file: missing #END_TB");
    CHECK(err("count.traceg", h61 + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n" + exit_line + "\n#END_TB\n") ==
          "count.traceg:22: warp 0 has 1 fewer instruction lines than its 'insts = N'");
    CHECK(err("warp.traceg", h61 + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 2\n") ==
          "warp.traceg:19: warp id beyond the block's 2 warps '2'");
    CHECK(err("grid.traceg", h61 + "#BEGIN_TB\nthread block = 2,0,0\n") ==
          "grid.traceg:18: thread block index outside the grid '2,0,0'");
    std::string bad_dim = h61;
    bad_dim.replace(bad_dim.find("(64,1,1)"), 8, "(64,x,1)");
    CHECK(err("dim.traceg", bad_dim) == "dim.traceg:4: bad value of header '-block dim' (want (x,y,z), each >= 1) '(64,x,1)'");
    CHECK(err("ver.traceg", header(4, 89, false)) ==
          "ver.traceg:7: unsupported binary version (supported: 60, 61, 70, 75, 80, 86, 90) '89'");
    const std::string h90 = header(5, 90, false);
    CHECK(err("tma.traceg", h90 + body({"0010 ffffffff 0 UTMALDG.2D 0 0 0"})) ==
          "tma.traceg:23: unsupported Hopper instruction (TMA tensor load, not modelled) 'UTMALDG.2D'");
    CHECK(err("h90.traceg", h90 + body({"0010 ffffffff 1 R1 FROB 0 0 0"})) ==
          "h90.traceg:23: unknown opcode for binary version 90 (Hopper) 'FROB'");
    CHECK(err("tv.traceg", header(2, 61, false)) == "tv.traceg:12: unsupported accelsim tracer version (supported: 3, 4, 5) '2'");
    CHECK(err("v5.traceg", header(5, 61, false) + body({"0010 ffffffff 0 EXIT 0 0"})) ==
          "v5.traceg:23: truncated instruction line: missing immediate");
    CHECK(err("extra.traceg", h61 + body({"0010 ffffffff 0 EXIT 0 0 7"})) ==
          "extra.traceg:23: unexpected token at the end of the instruction line '7'");
    CHECK(err("empty.traceg", h61) == "empty.traceg:16: truncated file: no thread blocks (#BEGIN_TB)");
}

TEST_CASE("trace: a reader that fails in its header closes the file", "[trace]") {
    // Found by fuzz_accelsim: a throwing constructor skipped the destructor, so every bad
    // header leaked one descriptor until the process ran out (EMFILE).
    auto open_fds = [] {
        size_t n = 0;
        for (const auto& e : fs::directory_iterator("/proc/self/fd")) n += e.is_symlink() ? 1 : 0;
        return n;
    };
    const std::string p = write_tmp("badver.traceg", header(4, 89, false));
    const size_t before = open_fds();
    for (int i = 0; i < 50; ++i) CHECK_THROWS_AS(read_traceg(p), sim::InputError);
    CHECK(open_fds() == before);
}

TEST_CASE("trace: a truncated and mutated trace never crashes", "[trace]") {
    const std::string text = slurp(test::data_path("accelsim/vecadd-256/kernel-1.traceg"));
    REQUIRE(text.size() > 1000);
    std::mt19937 rng(12345);
    auto attempt = [&](const std::string& t) {
        const std::string p = write_tmp("fuzz.traceg", t);
        try {
            auto k = read_traceg(p);
            for (const auto& c : k->ctas)  // whatever parses must be internally consistent
                for (const auto& w : c.warps)
                    for (const auto& i : w.insts) {
                        REQUIRE(i.inst != nullptr);
                        if (i.addr_index != core::kNoAddresses)
                            REQUIRE(i.addr_index + __builtin_popcount(i.active_mask) <= w.addresses.size());
                    }
            return true;
        } catch (const sim::InputError& e) {
            REQUIRE(std::string(e.what()).find("fuzz.traceg:") != std::string::npos);
            return false;
        }
    };
    unsigned ok = 0, failed = 0;
    for (int i = 0; i < 150; ++i) {  // truncations
        const size_t cut = std::uniform_int_distribution<size_t>(0, text.size() - 1)(rng);
        (attempt(text.substr(0, cut)) ? ok : failed)++;
    }
    const std::string alphabet = "0123456789abcdefxRZ .,=#-\n\t\0\xff";
    for (int i = 0; i < 250; ++i) {  // byte mutations
        std::string t = text;
        const int edits = std::uniform_int_distribution<int>(1, 4)(rng);
        for (int e = 0; e < edits; ++e) {
            const size_t at = std::uniform_int_distribution<size_t>(0, t.size() - 1)(rng);
            t[at] = alphabet[std::uniform_int_distribution<size_t>(0, alphabet.size() - 1)(rng)];
        }
        (attempt(t) ? ok : failed)++;
    }
    CHECK(failed > 100);  // most damage is detected
    CHECK(ok + failed == 400);
}

TEST_CASE("trace: kernelslist and the trace workload", "[trace]") {
    const auto cmds = read_kernelslist(real_trace() + "kernelslist.g");
    REQUIRE(cmds.size() == 4);
    CHECK(cmds[0].kind == TraceCommand::Kind::MemcpyHtoD);
    CHECK(cmds[1].address == 0x00007f2b2d500200ull);
    CHECK(cmds[2].bytes == 400);
    CHECK(cmds[3].kind == TraceCommand::Kind::Kernel);
    CHECK(cmds[3].path == real_trace() + "kernel-1.traceg");

    TraceWorkload wl(real_trace() + "kernelslist.g");
    FakeHost host;
    wl.run(host);
    CHECK(host.launched == std::vector<std::string>{"_Z6vecAddIfEvPT_S1_S1_i"});
    CHECK(host.insts == std::vector<uint64_t>{344});
    CHECK(wl.kernel_names() == host.launched);
    CHECK(wl.skipped_copies() == 3);
    CHECK(wl.skipped_copy_bytes() == 1200);
    const VerifyResult v = wl.verify();
    CHECK(v.ok);
    CHECK(v.checked == 0);
    CHECK(v.detail == "timing-only trace: no outputs to check");
}

TEST_CASE("trace: kernelslist errors name the line", "[trace]") {
    auto list_err = [](const std::string& text) {
        try {
            read_kernelslist(write_tmp("kernelslist.g", text));
        } catch (const sim::InputError& e) {
            std::string m = e.what();
            return m.substr(m.rfind('/') + 1);
        }
        return std::string("no error");
    };
    CHECK(list_err("MemcpyHtoD,0x10,400\nMemcpyHtoD,0xZZ,4\n") == "kernelslist.g:2: bad copy address '0xZZ'");
    CHECK(list_err("\nkernel-1.traceg.xz\n") ==
          "kernelslist.g:2: compressed traces are not supported; decompress with 'xz -d' 'kernel-1.traceg.xz'");
    CHECK(list_err("launch foo\n") == "kernelslist.g:1: unknown command (want MemcpyHtoD,... or kernel-N.traceg) 'launch foo'");
}
