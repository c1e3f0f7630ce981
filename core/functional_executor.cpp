// SPDX-License-Identifier: Apache-2.0
// Warp-instruction execution: guard evaluation, dispatch, shared helpers of the semantics.
#include "core/functional_executor.h"

#include "core/ops_common.h"

namespace stacksim::core {

void execute(const Instruction& inst, WarpExecContext& warp, uint32_t active_mask,
             ExecResult& out) {
    uint32_t mask = active_mask;
    if (inst.guard != kNoReg) {
        const uint64_t* g = &warp.regs[inst.guard * kWarpSize];
        uint32_t m = 0;
        ops::for_lanes(active_mask, [&](unsigned lane) {
            if (((g[lane] & 1) != 0) != inst.guard_negated) m |= 1u << lane;
        });
        mask = m;
    }
    out.active_mask = mask;
    out.taken_mask = 0;
    out.space = StateSpace::None;
    out.is_load = out.is_store = out.is_atomic = false;
    out.access_bytes = 0;
    out.sleep_ns = 0;
    if (mask == 0) return;
    if (!inst.info || !inst.info->exec) ops::fail(inst, "instruction has no semantic function");
    inst.info->exec(inst, warp, mask, out);
}

namespace ops {

void fail(const Instruction& inst, const std::string& msg) {
    std::string where = inst.file ? *inst.file : std::string("<kernel>");
    throw ExecError(where + ":" + std::to_string(inst.line) + ": " + msg + " '" + inst.text +
                    "'");
}

uint64_t special_value(SpecialReg s, const WarpExecContext& w, unsigned lane) {
    const CtaExecContext& c = *w.cta;
    switch (s) {
    case SpecialReg::TidX: return w.tid_x[lane];
    case SpecialReg::TidY: return w.tid_y[lane];
    case SpecialReg::TidZ: return w.tid_z[lane];
    case SpecialReg::NtidX: return c.ntid[0];
    case SpecialReg::NtidY: return c.ntid[1];
    case SpecialReg::NtidZ: return c.ntid[2];
    case SpecialReg::CtaidX: return c.ctaid[0];
    case SpecialReg::CtaidY: return c.ctaid[1];
    case SpecialReg::CtaidZ: return c.ctaid[2];
    case SpecialReg::NctaidX: return c.nctaid[0];
    case SpecialReg::NctaidY: return c.nctaid[1];
    case SpecialReg::NctaidZ: return c.nctaid[2];
    case SpecialReg::LaneId: return lane;
    case SpecialReg::WarpId: return w.warp_in_cta;
    case SpecialReg::NWarpId: return c.max_warps;
    case SpecialReg::SmId: return c.sm_id;
    case SpecialReg::Clock: return static_cast<uint32_t>(w.clock);
    case SpecialReg::Clock64: return w.clock;
    case SpecialReg::None: break;
    default: return special_value_ext(s, w, lane);
    }
    return 0;
}

MemRef resolve_address(const Instruction& inst, const Operand& a, const WarpExecContext& w,
                       unsigned lane, unsigned bytes, unsigned align) {
    uint64_t addr = a.imm;
    if (a.reg != kNoReg) addr += w.regs[a.reg * kWarpSize + lane];
    // .shared/.local addresses are 32-bit: a 32-bit register plus a negative-looking offset wraps.
    if (inst.space == StateSpace::Shared || inst.space == StateSpace::Local) addr &= 0xffffffffu;
    bool shared = inst.space == StateSpace::Shared;
    if (inst.space == StateSpace::Generic && addr >= kSharedWindowBase &&
        addr - kSharedWindowBase < kSharedWindowBytes) {
        shared = true;
        addr -= kSharedWindowBase;
    }
    if (inst.space == StateSpace::Local ||
        (inst.space == StateSpace::Generic && addr >= kLocalWindowBase && addr - kLocalWindowBase < kLocalWindowBytes)) {
        if (inst.space == StateSpace::Generic) addr -= kLocalWindowBase;
        if (align > 1 && (addr & (align - 1)) != 0)
            fail(inst, "misaligned " + std::to_string(align) + "-byte local access at offset " + std::to_string(addr));
        const CtaExecContext& c = *w.cta;
        if (addr > c.local_bytes || c.local_bytes - addr < bytes)
            fail(inst, "local memory access out of bounds (offset " + std::to_string(addr) + ", " +
                           std::to_string(c.local_bytes) + " bytes per thread)");
        // Word w of thread t sits at (w * threads + t) * 4: a warp's accesses to one local
        // offset are consecutive words and coalesce as on hardware.
        const uint64_t threads = uint64_t{(c.ntid[0] * c.ntid[1] * c.ntid[2] + kWarpSize - 1) / kWarpSize} * kWarpSize;
        const uint64_t t = uint64_t{w.warp_in_cta} * kWarpSize + lane;
        return MemRef{false, static_cast<uint32_t>(threads * 4), c.local_base + ((addr / 4) * threads + t) * 4 + addr % 4};
    }
    if (align > 1 && (addr & (align - 1)) != 0)
        fail(inst, "misaligned " + std::to_string(align) + "-byte access at address " +
                       std::to_string(addr));
    if (shared && (addr > w.cta->shared.size() || w.cta->shared.size() - addr < bytes))
        fail(inst, "shared memory access out of bounds (offset " + std::to_string(addr) +
                       ", " + std::to_string(w.cta->shared.size()) + " bytes allocated)");
    return MemRef{shared, 0, addr};
}

namespace {
// A local access wider than a word: its words are a thread-stride apart (kept out of line so
// that the global path of mem_read/mem_write stays as short as before).
[[gnu::noinline]] void local_words(const Instruction& inst, WarpExecContext& w, MemRef m, uint8_t* data,
                                   unsigned bytes, bool write) {
    for (unsigned k = 0; k < bytes; k += 4) {
        const MemRef word{false, 0, m.addr + (k / 4) * m.word_stride};
        if (write) mem_write(inst, w, word, data + k, 4);
        else mem_read(inst, w, word, data + k, 4);
    }
}
}  // namespace

void mem_read(const Instruction& inst, WarpExecContext& w, MemRef m, void* dst,
              unsigned bytes) {
    if (bytes > 4 && m.word_stride) return local_words(inst, w, m, static_cast<uint8_t*>(dst), bytes, false);
    if (m.shared) {
        std::memcpy(dst, w.cta->shared.data() + m.addr, bytes);
    } else {
        if (!w.cta->global) fail(inst, "no global memory attached");
        w.cta->global->read(m.addr, dst, bytes);
    }
}

void mem_write(const Instruction& inst, WarpExecContext& w, MemRef m, const void* src,
               unsigned bytes) {
    if (bytes > 4 && m.word_stride)
        return local_words(inst, w, m, static_cast<uint8_t*>(const_cast<void*>(src)), bytes, true);
    if (m.shared) {
        std::memcpy(w.cta->shared.data() + m.addr, src, bytes);
    } else {
        if (!w.cta->global) fail(inst, "no global memory attached");
        w.cta->global->write(m.addr, src, bytes);
    }
}

}  // namespace ops
}  // namespace stacksim::core
