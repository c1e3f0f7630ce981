// SPDX-License-Identifier: Apache-2.0
// `stacksim trace export`: a PTX run recorded as an Accel-Sim trace (kernelslist.g + .traceg).
#include "top/trace_export.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <iterator>

#include "core/exec_context.h"
#include "core/instruction.h"
#include "core/kernel_launch.h"
#include "sim/error.h"
#include "sim/staged_directory.h"
#include "workloads/sass_opcodes.h"

namespace stacksim::top {

namespace {

constexpr uint32_t kBinaryVersion = 70;  // Volta: IADD3, LOP3, FADD, ... (Accel-Sim volta_opcode.h)

bool is_float(core::DataType t) {
    return t == core::DataType::F16 || t == core::DataType::F32 || t == core::DataType::F64;
}

/// The SASS opcode of the same kind as a PTX ALU instruction (before the pipeline check).
std::string alu_opcode(const core::Instruction& inst) {
    const std::string n = inst.name();
    const bool f = is_float(inst.type);
    if (n == "add" || n == "sub" || n == "neg" || n == "abs" || n == "copysign") return f ? "FADD" : "IADD3";
    if (n == "mul" || n == "div") return f ? "FMUL" : "IMAD";
    if (n == "mad" || n == "fma") return f ? "FFMA" : "IMAD";
    if (n == "mul24" || n == "mad24" || n == "rem") return "IMAD";
    if (n == "min" || n == "max") return f ? "FMNMX" : "IMNMX";
    if (n == "setp" || n == "set") return f ? "FSETP.GE.AND" : "ISETP.GE.AND";
    if (n == "and" || n == "or" || n == "xor" || n == "not" || n == "cnot" || n == "lop3") return "LOP3.LUT";
    if (n == "shl" || n == "shr" || n == "shf" || n == "bfe" || n == "bfi") return "SHF.L.U32";
    if (n == "popc") return "POPC";
    if (n == "clz" || n == "bfind") return "FLO.U32";
    if (n == "brev") return "BREV";
    if (n == "prmt") return "PRMT";
    if (n == "selp") return f ? "FSEL" : "SEL";
    if (n == "mov") return inst.num_src > 0 && inst.src[0].kind == core::Operand::Kind::Special ? "S2R" : "MOV";
    if (n == "cvt") {
        const bool from_f = is_float(inst.src_type);
        return f ? (from_f ? "F2F.F32.F64" : "I2F") : (from_f ? "F2I.TRUNC" : "IMAD.MOV.U32");
    }
    if (n == "cvta") return "IADD3";
    if (n == "ld") return "LDC";  // ld.param / ld.const: the constant cache
    if (n == "shfl") return "SHFL.IDX";
    if (n == "vote" || n == "activemask") return "VOTE.ANY";
    if (n == "membar" || n == "fence") return "MEMBAR.GL";
    return "IMAD";
}

std::string fp64_opcode(const core::Instruction& inst) {
    const std::string n = inst.name();
    if (n == "add" || n == "sub" || n == "neg" || n == "abs") return "DADD";
    if (n == "mul") return "DMUL";
    if (n == "setp" || n == "set") return "DSETP.GE.AND";
    return "DFMA";
}

std::string sfu_opcode(const core::Instruction& inst) {
    const std::string n = inst.name();
    if (n == "sqrt") return "MUFU.SQRT";
    if (n == "rsqrt") return "MUFU.RSQ";
    if (n == "rcp") return "MUFU.RCP";
    if (n == "ex2") return "MUFU.EX2";
    if (n == "lg2") return "MUFU.LG2";
    if (n == "sin") return "MUFU.SIN";
    if (n == "cos") return "MUFU.COS";
    return "MUFU.TANH";
}

std::string memory_opcode(const core::ExecResult& r) {
    const bool shared = r.space == core::StateSpace::Shared;
    if (r.is_atomic) return shared ? "ATOMS.ADD" : "ATOMG.E.ADD.STRONG.GPU";
    if (r.is_store) return shared ? "STS" : "STG.E.SYS";
    return shared ? "LDS" : "LDG.E.SYS";
}

/// Lanes of `mask` form one run of consecutive bits.
bool contiguous(uint32_t mask) {
    const uint32_t shifted = mask >> __builtin_ctz(mask);
    return (shifted & (shifted + 1)) == 0;
}

std::string reg(uint16_t id) { return fmt::format("R{}", id % 255); }

}  // namespace

std::string TraceExporter::sass_opcode(const core::Instruction& inst, const core::ExecResult& r) {
    using core::UnitClass;
    if (r.space == core::StateSpace::Global || r.space == core::StateSpace::Shared) return memory_opcode(r);
    std::string op;
    switch (inst.unit()) {
    case UnitClass::Alu: op = alu_opcode(inst); break;
    case UnitClass::Fp64: op = fp64_opcode(inst); break;
    case UnitClass::Sfu: op = sfu_opcode(inst); break;
    // ld.param/.const and other accesses the timing model does not send to memory: a constant load.
    case UnitClass::LdSt: return "LDC";
    case UnitClass::Control:
        switch (inst.control()) {
        case core::ControlKind::Branch: return "BRA";
        case core::ControlKind::Barrier: return "BAR.SYNC";
        case core::ControlKind::Exit: return "EXIT";
        case core::ControlKind::Call: return "CALL.REL";
        case core::ControlKind::Return: return "RET.REL";
        case core::ControlKind::None: return "NOP";
        }
        break;
    }
    // The SASS row must sit on the same pipeline as the PTX instruction; else a plain one of it.
    workloads::SassFamily family = workloads::SassFamily::Volta;
    const workloads::SassOpcode* row = workloads::find_sass_opcode(family, op.substr(0, op.find('.')));
    if (row && row->info->unit == inst.unit()) return op;
    return inst.unit() == UnitClass::Fp64 ? "DFMA" : inst.unit() == UnitClass::Sfu ? "MUFU.EX2" : "IMAD";
}

void TraceExporter::on_event(const core::SmEvent& e) {
    // Reported by write(): an exception must not unwind through the SystemC kernel.
    if (e.kind == core::SmEventKind::CtaFlushed && m_flushed.empty())
        m_flushed = fmt::format("CTA {} of kernel {}", e.cta, e.kernel ? e.kernel : "?");
}

void TraceExporter::on_execute(const core::ExecutedInstruction& e) {
    const core::KernelLaunch& l = *e.launch;
    auto [it, fresh] = m_kernels.try_emplace(l.id);
    Kernel& k = it->second;
    if (fresh) {
        k.name = l.name();
        k.grid = l.grid;
        k.block = l.block;
        k.shared_bytes = l.shared_bytes;
        k.regs = std::min<uint32_t>(l.regs_per_thread, 255);
    }
    const uint64_t cta = e.cta[0] + uint64_t{l.grid[0]} * (e.cta[1] + uint64_t{l.grid[1]} * e.cta[2]);
    auto& warps = k.ctas[cta];
    auto& counts = k.counts[cta];
    if (warps.empty()) {
        warps.resize(l.warps_per_cta());
        counts.resize(l.warps_per_cta());
    }
    const core::Instruction& inst = *e.inst;
    const core::ExecResult& r = *e.result;
    const bool memory = r.space == core::StateSpace::Global || r.space == core::StateSpace::Shared;
    const uint32_t mask = memory || inst.control() == core::ControlKind::Exit ? r.active_mask : e.simt_mask;
    std::string& out = warps.at(e.warp_in_cta);
    fmt::format_to(std::back_inserter(out), "{:04x} {:08x} {}", e.pc * 16, mask, unsigned{inst.num_writes});
    for (unsigned i = 0; i < inst.num_writes; ++i) out += " " + reg(inst.writes[i]);
    const unsigned nsrc = std::min<unsigned>(inst.num_reads, 8);
    fmt::format_to(std::back_inserter(out), " {} {}", sass_opcode(inst, r), nsrc);
    for (unsigned i = 0; i < nsrc; ++i) out += " " + reg(inst.reads[i]);
    if (!memory || mask == 0) {
        out += " 0 \n";
    } else {
        fmt::format_to(std::back_inserter(out), " {}", unsigned{r.access_bytes});
        std::vector<uint64_t> addr;
        for (uint32_t m = mask; m; m &= m - 1) addr.push_back(r.addr[static_cast<unsigned>(__builtin_ctz(m))]);
        // Mode 1 (base + stride) for a contiguous run of lanes with one stride, as the tracer
        // compresses; else mode 0, one address per lane.
        bool strided = contiguous(mask) && addr.size() > 1;
        const int64_t stride = addr.size() > 1 ? static_cast<int64_t>(addr[1] - addr[0]) : 0;
        strided = strided && stride >= INT32_MIN && stride <= INT32_MAX;
        for (size_t i = 1; strided && i < addr.size(); ++i)
            strided = static_cast<int64_t>(addr[i] - addr[i - 1]) == stride;
        if (strided) {
            fmt::format_to(std::back_inserter(out), " 1 0x{:x} {} \n", addr[0], stride);
        } else {
            out += " 0";
            for (uint64_t a : addr) fmt::format_to(std::back_inserter(out), " 0x{:x}", a);
            out += " \n";
        }
    }
    ++counts[e.warp_in_cta];
    ++m_instructions;
}

std::string TraceExporter::write(sim::StagedDirectory& out) const {
    if (!m_flushed.empty())
        throw sim::InputError("trace export: " + m_flushed +
                              " was flushed by preemption and would appear twice in the trace; export without "
                              "preemption (preemption.policy)");
    if (m_kernels.empty()) throw sim::SimulationError("trace export: the run executed no PTX kernel instruction");
    std::string list;
    unsigned n = 0;
    for (const auto& [id, k] : m_kernels) {
        const std::string file = fmt::format("kernel-{}.traceg", ++n);
        std::string t = fmt::format(
            "-kernel name = {}\n-kernel id = {}\n-grid dim = ({},{},{})\n-block dim = ({},{},{})\n-shmem = {}\n"
            "-nregs = {}\n-binary version = {}\n-cuda stream id = 0\n-shmem base_addr = 0x{:016x}\n"
            "-local mem base_addr = 0x{:016x}\n-nvbit version = stacksim-{}\n-accelsim tracer version = 4\n"
            "-enable lineinfo = 0\n\n#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
            "[reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n",
            k.name, n, k.grid[0], k.grid[1], k.grid[2], k.block[0], k.block[1], k.block[2], k.shared_bytes, k.regs,
            kBinaryVersion, core::kSharedWindowBase, core::kSharedWindowBase + core::kSharedWindowBytes,
            STACKSIM_VERSION);
        for (const auto& [cta, warps] : k.ctas) {
            const auto c = std::array<uint64_t, 3>{cta % k.grid[0], cta / k.grid[0] % k.grid[1],
                                                   cta / (uint64_t{k.grid[0]} * k.grid[1])};
            t += fmt::format("\n#BEGIN_TB\n\nthread block = {},{},{}\n\n", c[0], c[1], c[2]);
            const auto& counts = k.counts.at(cta);
            for (size_t w = 0; w < warps.size(); ++w) {
                if (counts[w] == 0) continue;
                t += fmt::format("warp = {}\ninsts = {}\n", w, counts[w]);
                t += warps[w];
                t += "\n";
            }
            t += "#END_TB\n";
        }
        out.write(file, t);
        list += file + "\n";
    }
    out.write("kernelslist.g", list);
    return fmt::format("{} kernel{}, {} warp instructions", n, n == 1 ? "" : "s", m_instructions);
}

}  // namespace stacksim::top
