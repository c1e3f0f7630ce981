// SPDX-License-Identifier: Apache-2.0
// SASS opcode tables (Pascal, Volta, Turing, Ampere, Hopper) mapped to stacksim pipelines.
//
// Source: Accel-Sim's opcode maps, accel-sim/accel-sim-framework
//   gpu-simulator/ISA_Def/pascal_opcode.h  (Pascal_OpcodeMap, binary versions 60, 61)
//   gpu-simulator/ISA_Def/volta_opcode.h   (Volta_OpcodeMap,  binary version 70)
//   gpu-simulator/ISA_Def/turing_opcode.h  (Turing_OpcodeMap, binary version 75)
//   gpu-simulator/ISA_Def/ampere_opcode.h  (Ampere_OpcodeMap, binary versions 80, 86)
//   gpu-simulator/ISA_Def/hopper_opcode.h  (Hopper_OpcodeMap, binary version 90)
// and the memory-space cases of gpu-simulator/trace-driven/trace_driven.cc. The family
// columns below reproduce which opcodes each map contains. Category -> UnitClass:
//   SP_OP, INTP_OP, ALU_OP, SPECIALIZED_UNIT_2 (texture), _3 (tensor), _4 (uniform) -> Alu
//   DP_OP -> Fp64;  SFU_OP -> Sfu;  LOAD_OP, STORE_OP -> LdSt;  MEMORY_BARRIER_OP -> Alu
//   BRANCH_OP, CALL_OPS, RET_OPS, SPECIALIZED_UNIT_1 (branch unit) -> Control
//   BARRIER_OP -> Control/Barrier;  EXIT_OPS -> Control/Exit
// LDC/ULDC stay Alu as in Accel-Sim's tables (the constant bank is not modelled as memory).
// Hopper's map is Ampere's whole map plus the rows marked kH below (checked against
// hopper_opcode.h name by name), so every Ampere row also carries the Hopper bit. Of Hopper's
// additions, the TMA (UBLK*, UTMA*), mbarrier (SYNCS, ARRIVES), cluster-barrier (UCGABAR_*) and
// warpgroup-MMA (WARPGROUP, HGMMA, QGMMA) instructions are not modelled: Accel-Sim gives them
// dedicated units or NOPs, and replaying them as ALU work would silently drop their memory
// traffic and waits, so they are rejected with their own message (sass_unsupported_reason).
#include "workloads/sass_opcodes.h"

#include <array>
#include <charconv>
#include <unordered_map>
#include <utility>

namespace stacksim::workloads {
namespace {

using U = core::UnitClass;
using C = core::ControlKind;
using M = SassMemKind;
using S = SassSpace;

constexpr uint8_t kP = 1, kV = 2, kT = 4, kH = 16, kA = 8 | kH;  // kA: Ampere and Hopper
constexpr uint8_t kAll = kP | kV | kT | kA, kVTA = kV | kT | kA, kTA = kT | kA, kPTA = kP | kT | kA;

struct Row {
    core::OpInfo info;
    M mem;
    S space;
    uint8_t families;
};

constexpr Row row(std::string_view name, U unit, uint8_t fam, C ctl = C::None, M mem = M::None,
                  S space = S::None) {
    return Row{core::OpInfo{name, unit, ctl, nullptr, core::OpForm::Plain, 0, 0, 0}, mem, space,
               fam};
}
constexpr Row alu(std::string_view n, uint8_t fam) { return row(n, U::Alu, fam); }
constexpr Row ctl(std::string_view n, uint8_t fam, C c = C::None) { return row(n, U::Control, fam, c); }
constexpr Row mem(std::string_view n, uint8_t fam, M m, S s) { return row(n, U::LdSt, fam, C::None, m, s); }

// clang-format off
const std::array kRows{
    // Floating point 32 (SP_OP)
    alu("FADD", kAll), alu("FADD32I", kAll), alu("FCHK", kAll), alu("FFMA32I", kAll),
    alu("FFMA", kAll), alu("FMNMX", kAll), alu("FMUL", kAll), alu("FMUL32I", kAll),
    alu("FSEL", kAll), alu("FSET", kAll), alu("FSETP", kAll), alu("FSWZADD", kAll),
    alu("RRO", kP), alu("FCMP", kP),
    // SFU
    row("MUFU", U::Sfu, kAll),
    // Floating point 16 (SP_OP)
    alu("HADD2", kAll), alu("HFMA2", kAll), alu("HMUL2", kAll), alu("HSET2", kAll),
    alu("HSETP2", kAll), alu("HADD2_32I", kVTA), alu("HFMA2_32I", kVTA), alu("HMUL2_32I", kVTA),
    alu("HMNMX2", kA),
    // Hopper additions: DPX integer ops (VIADD, VIMNMX, ...) on the integer/FMA pipes, the
    // cluster error barrier and fence (as MEMBAR), ELECT on the branch unit, the register-count
    // hint as a NOP
    alu("VIADD", kH), alu("VIADDMNMX", kH), alu("VIMNMX", kH), alu("VIMNMX3", kH),
    alu("CGAERRBAR", kH), alu("FENCE", kH), alu("USETMAXREG", kH), ctl("ELECT", kH),
    // Tensor core (SPECIALIZED_UNIT_3; IMMA is INTP_OP on Pascal/Volta): no tensor pipe -> Alu
    alu("HMMA", kVTA), alu("BMMA", kTA), alu("IMMA", kAll), alu("DMMA", kA),
    // Double precision (DP_OP)
    row("DADD", U::Fp64, kAll), row("DFMA", U::Fp64, kAll), row("DMUL", U::Fp64, kAll),
    row("DSETP", U::Fp64, kAll), row("DMNMX", U::Fp64, kP), row("DSET", U::Fp64, kP),
    // Integer (INTP_OP)
    alu("BMSK", kAll), alu("BREV", kAll), alu("FLO", kAll), alu("IABS", kAll), alu("IADD", kAll),
    alu("IADD3", kAll), alu("IADD32I", kAll), alu("IDP", kAll), alu("IDP4A", kAll),
    alu("IMAD", kAll), alu("IMNMX", kAll), alu("IMUL", kAll), alu("IMUL32I", kAll),
    alu("ISCADD", kAll), alu("ISCADD32I", kAll), alu("ISETP", kAll), alu("LEA", kAll),
    alu("LOP", kAll), alu("LOP3", kAll), alu("LOP32I", kAll), alu("POPC", kAll), alu("SHF", kAll),
    alu("SHR", kAll), alu("VABSDIFF", kAll), alu("VABSDIFF4", kAll), alu("SHL", kPTA),
    alu("ISET", kP), alu("VADD", kP), alu("BFE", kP), alu("BFI", kP), alu("ICMP", kP),
    alu("IMADSP", kP), alu("XMAD", kP), alu("VMNMX", kP),
    // Conversion (ALU_OP)
    alu("F2F", kAll), alu("F2I", kAll), alu("I2F", kAll), alu("I2I", kAll), alu("I2IP", kAll),
    alu("FRND", kAll), alu("F2FP", kA), alu("I2FP", kA), alu("F2IP", kA),
    // Movement (ALU_OP)
    alu("MOV", kAll), alu("MOV32I", kAll), alu("PRMT", kAll), alu("SEL", kAll), alu("SGXT", kAll),
    alu("SHFL", kAll), alu("MOVM", kTA),
    // Predicate (ALU_OP)
    alu("PLOP3", kAll), alu("PSETP", kAll), alu("P2R", kAll), alu("R2P", kAll),
    alu("CSET", kP), alu("CSETP", kP), alu("PSET", kP),
    // Load/store (LOAD_OP, STORE_OP); spaces from trace_driven.cc
    mem("LD", kAll, M::Load, S::Generic), mem("LDG", kAll, M::Load, S::Global),
    mem("LDL", kAll, M::Load, S::Local), mem("LDS", kAll, M::Load, S::Shared),
    mem("LDSM", kTA, M::Load, S::Shared), mem("LDGSTS", kA, M::Load, S::Global),
    mem("ST", kAll, M::Store, S::Generic), mem("STG", kAll, M::Store, S::Global),
    mem("STL", kAll, M::Store, S::Local), mem("STS", kAll, M::Store, S::Shared),
    mem("ATOM", kAll, M::Atomic, S::Global), mem("ATOMG", kAll, M::Atomic, S::Global),
    mem("RED", kAll, M::Atomic, S::Global), mem("ATOMS", kAll, M::Atomic, S::Shared),
    alu("LDC", kAll), alu("MATCH", kAll), alu("QSPC", kAll), alu("CCTL", kAll),
    alu("CCTLL", kAll), alu("ERRBAR", kAll), alu("MEMBAR", kAll), alu("CCTLT", kAll),
    alu("LDGDEPBAR", kA),
    // Uniform datapath (SPECIALIZED_UNIT_4)
    alu("R2UR", kTA), alu("S2UR", kTA), alu("UBMSK", kTA), alu("UBREV", kTA), alu("UCLEA", kTA),
    alu("UFLO", kTA), alu("UIADD3", kTA), alu("UIMAD", kTA), alu("UISETP", kTA), alu("ULDC", kTA),
    alu("ULEA", kTA), alu("ULOP", kTA), alu("ULOP3", kTA), alu("ULOP32I", kTA), alu("UMOV", kTA),
    alu("UP2UR", kTA), alu("UPLOP3", kTA), alu("UPOPC", kTA), alu("UPRMT", kTA),
    alu("UPSETP", kTA), alu("UR2UP", kTA), alu("USEL", kTA), alu("USGXT", kTA), alu("USHF", kTA),
    alu("USHL", kTA), alu("USHR", kTA), alu("VOTEU", kTA), alu("REDUX", kA), alu("UF2FP", kA),
    // Texture (ALU_OP on Pascal, SPECIALIZED_UNIT_2 later) and surface (ALU_OP)
    alu("TEX", kAll), alu("TLD", kAll), alu("TLD4", kAll), alu("TMML", kAll), alu("TXD", kAll),
    alu("TXQ", kAll), alu("TEXS", kP), alu("TLD4S", kP), alu("TLDS", kP),
    alu("SUATOM", kTA), alu("SULD", kTA), alu("SURED", kTA), alu("SUST", kTA), alu("SUQUERY", kA),
    // Control: branches redirect the PC; the rest only manage the convergence/call stack
    ctl("BRA", kAll, C::Branch), ctl("BRX", kAll, C::Branch), ctl("JMP", kAll, C::Branch),
    ctl("JMX", kAll, C::Branch), ctl("CALL", kAll, C::Branch), ctl("RET", kAll, C::Branch),
    ctl("RTT", kAll, C::Branch), ctl("BREAK", kAll, C::Branch), ctl("BRXU", kTA, C::Branch),
    ctl("JMXU", kTA, C::Branch), ctl("CAL", kP, C::Branch), ctl("JCAL", kP, C::Branch),
    ctl("PRET", kP, C::Branch), ctl("BRK", kP, C::Branch), ctl("CONT", kP, C::Branch),
    ctl("SYNC", kP, C::Branch),
    ctl("BMOV", kAll), ctl("BPT", kAll), ctl("BSSY", kAll), ctl("BSYNC", kAll), ctl("KILL", kAll),
    ctl("NANOSLEEP", kAll), ctl("RPCMOV", kAll), ctl("WARPSYNC", kAll), ctl("YIELD", kAll),
    ctl("SSY", kP), ctl("PBK", kP), ctl("PCNT", kP), ctl("PEXIT", kP),
    ctl("EXIT", kAll, C::Exit), ctl("BAR", kAll, C::Barrier),
    // Miscellaneous (ALU_OP)
    alu("B2R", kAll), alu("CS2R", kAll), alu("CSMTEST", kAll), alu("DEPBAR", kAll),
    alu("GETLMEMBASE", kAll), alu("LEPC", kAll), alu("NOP", kAll), alu("PMTRIG", kAll),
    alu("R2B", kAll), alu("S2R", kAll), alu("SETCTAID", kAll), alu("SETLMEMBASE", kAll),
    alu("VOTE", kAll), alu("VOTE_VTG", kAll),
};
// clang-format on

using FamilyMap = std::unordered_map<std::string_view, SassOpcode>;

constexpr unsigned kFamilies = 5;

const std::array<FamilyMap, kFamilies>& family_maps() {
    static const std::array<FamilyMap, kFamilies> maps = [] {
        std::array<FamilyMap, kFamilies> m;
        for (const Row& r : kRows)
            for (unsigned f = 0; f < kFamilies; ++f)
                if (r.families & (1u << f)) m[f].emplace(r.info.name, SassOpcode{&r.info, r.mem, r.space});
        return m;
    }();
    return maps;
}

bool all_digits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

}  // namespace

bool sass_family_of(uint32_t binary_version, SassFamily& family) {
    switch (binary_version) {
    case 60: case 61: family = SassFamily::Pascal; return true;
    case 70: family = SassFamily::Volta; return true;
    case 75: family = SassFamily::Turing; return true;
    case 80: case 86: family = SassFamily::Ampere; return true;
    case 90: family = SassFamily::Hopper; return true;
    default: return false;
    }
}

const char* sass_family_name(SassFamily family) {
    switch (family) {
    case SassFamily::Pascal: return "Pascal";
    case SassFamily::Volta: return "Volta";
    case SassFamily::Turing: return "Turing";
    case SassFamily::Ampere: return "Ampere";
    case SassFamily::Hopper: return "Hopper";
    }
    return "?";
}

const SassOpcode* find_sass_opcode(SassFamily family, std::string_view base_opcode) {
    const FamilyMap& m = family_maps()[static_cast<unsigned>(family)];
    auto it = m.find(base_opcode);
    return it == m.end() ? nullptr : &it->second;
}

const char* sass_unsupported_reason(SassFamily family, std::string_view base) {
    if (family != SassFamily::Hopper) return nullptr;
    static const std::array<std::pair<std::string_view, const char*>, 15> kUnsupported{{
        {"UBLKCP", "TMA bulk copy"}, {"UBLKPF", "TMA bulk prefetch"}, {"UBLKRED", "TMA bulk reduction"},
        {"UTMALDG", "TMA tensor load"}, {"UTMAPF", "TMA tensor prefetch"},
        {"UTMAREDG", "TMA tensor reduction"}, {"UTMASTG", "TMA tensor store"},
        {"UTMACCTL", "TMA descriptor cache control"}, {"UTMACMDFLUSH", "TMA command flush"},
        {"SYNCS", "mbarrier wait"}, {"ARRIVES", "mbarrier arrive"},
        {"UCGABAR_ARV", "cluster barrier"}, {"UCGABAR_WAIT", "cluster barrier"},
        {"HGMMA", "warpgroup MMA"}, {"QGMMA", "warpgroup MMA"},
    }};
    if (base == "WARPGROUP") return "warpgroup MMA";
    for (const auto& [name, why] : kUnsupported)
        if (name == base) return why;
    return nullptr;
}

unsigned sass_width_from_modifiers(std::string_view opcode) {
    size_t dot = opcode.find('.');
    while (dot != std::string_view::npos) {
        size_t next = opcode.find('.', dot + 1);
        std::string_view tok = opcode.substr(dot + 1, next == std::string_view::npos ? next : next - dot - 1);
        dot = next;
        std::string_view digits = tok;
        if (!all_digits(digits) && (tok.size() > 1 && (tok[0] == 'U' || tok[0] == 'S')))
            digits = tok.substr(1);
        if (!all_digits(digits) || digits.size() > 4) continue;
        unsigned bits = 0;
        std::from_chars(digits.data(), digits.data() + digits.size(), bits);
        // Accel-Sim stops at the first width token; widths that are not whole bytes (or exceed
        // a 255-byte lane access) are ignored so mem_width decides.
        return (bits % 8 == 0 && bits / 8 <= 255) ? bits / 8 : 0;
    }
    return 0;
}

bool parse_sass_register(std::string_view t, uint16_t& id) {
    auto number = [](std::string_view d, unsigned limit, unsigned& v) {
        if (!all_digits(d) || d.size() > 3) return false;
        std::from_chars(d.data(), d.data() + d.size(), v);
        return v <= limit;
    };
    unsigned n = 0;
    if (t == "RZ" || t == "URZ" || t == "PT" || t == "UPT") {
        id = core::kNoReg;
        return true;
    }
    if (t.size() > 2 && t[0] == 'U' && t[1] == 'R') {
        if (!number(t.substr(2), 63, n)) return false;
        id = n == 63 ? core::kNoReg : static_cast<uint16_t>(kSassUniformBase + n);
        return true;
    }
    if (t.size() > 2 && t[0] == 'U' && t[1] == 'P') {
        if (!number(t.substr(2), 7, n)) return false;
        id = n == 7 ? core::kNoReg : static_cast<uint16_t>(kSassUniformPredBase + n);
        return true;
    }
    if (t.size() > 1 && (t[0] == 'R' || t[0] == 'P')) {
        const bool gpr = t[0] == 'R';
        if (!number(t.substr(1), gpr ? 255 : 7, n)) return false;
        if (gpr) id = n == 255 ? core::kNoReg : static_cast<uint16_t>(n);
        else id = n == 7 ? core::kNoReg : static_cast<uint16_t>(kSassPredBase + n);
        return true;
    }
    return false;
}

}  // namespace stacksim::workloads
