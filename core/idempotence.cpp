// SPDX-License-Identifier: Apache-2.0
// Whether a kernel's CTAs may be flushed on preemption: rerunning one from scratch is harmless.
#include "core/idempotence.h"

#include <cstring>
#include <unordered_set>

namespace stacksim::core {

namespace {

/// Bit i: derives from parameter i (the first 63); bit 63: from something unknown.
using Origins = uint64_t;
constexpr Origins kUnknown = Origins{1} << 63;

Origins param_of(const Kernel& k, uint64_t offset) {
    for (size_t i = 0; i < k.params.size() && i < 63; ++i)
        if (offset >= k.params[i].offset && offset < uint64_t{k.params[i].offset} + k.params[i].bytes)
            // Only a pointer names a buffer; sizes and scalars used in index arithmetic do not.
            return k.params[i].bytes == 8 ? Origins{1} << i : Origins{0};
    return kUnknown;
}

bool is_global(const Instruction& in) {
    return in.space == StateSpace::Global || in.space == StateSpace::Generic || in.space == StateSpace::None;
}

}  // namespace

bool is_idempotent(const Kernel& k) {
    std::vector<Origins> reg(k.num_regs + 1, 0);
    auto origins_of = [&](uint16_t r) { return r == kNoReg || r >= reg.size() ? Origins{0} : reg[r]; };
    // Propagate to a fixed point: each pass can only add bits, and there are at most 64 per register.
    for (bool changed = true; changed;) {
        changed = false;
        for (const Instruction& in : k.code) {
            const char* op = in.name();
            Origins o = 0;
            if (!std::strcmp(op, "ld")) {
                if (in.space == StateSpace::Param) o = param_of(k, in.src[0].imm);
                else if (in.space == StateSpace::Shared || in.space == StateSpace::Local || in.space == StateSpace::Const)
                    o = 0;  // data, not one of the kernel's global buffers
                else o = kUnknown;  // a value loaded from memory may be a pointer
            } else if (!std::strcmp(op, "atom")) {
                o = kUnknown;
            } else {
                for (unsigned i = 0; i < in.num_reads; ++i) o |= origins_of(in.reads[i]);
            }
            for (unsigned i = 0; i < in.num_writes; ++i) {
                const uint16_t r = in.writes[i];
                if (r < reg.size() && (reg[r] | o) != reg[r]) reg[r] |= o, changed = true;
            }
        }
    }
    Origins loaded = 0, stored = 0;
    for (const Instruction& in : k.code) {
        const char* op = in.name();
        if (!std::strcmp(op, "atom") || !std::strcmp(op, "red")) return false;
        const bool load = !std::strcmp(op, "ld"), store = !std::strcmp(op, "st");
        if ((!load && !store) || !is_global(in) || in.num_src == 0) continue;
        const Operand& a = in.src[0];
        Origins o = a.kind == Operand::Kind::Addr && a.reg != kNoReg ? origins_of(a.reg) : kUnknown;
        if (o == 0) o = kUnknown;
        (load ? loaded : stored) |= o;
    }
    if (stored & kUnknown) return false;
    if (loaded & kUnknown) return stored == 0;
    return (loaded & stored) == 0;
}

bool is_idempotent(const TraceKernel& k) {
    constexpr uint64_t kLine = 128;
    std::unordered_set<uint64_t> loads, stores;
    for (const CtaTrace& cta : k.ctas)
        for (const WarpTrace& w : cta.warps)
            for (const TraceInstruction& t : w.insts) {
                if (t.is_atomic) return false;
                if ((!t.is_load && !t.is_store) || t.addr_index == kNoAddresses) continue;
                if (t.inst && (t.inst->space == StateSpace::Shared || t.inst->space == StateSpace::Local)) continue;
                const uint32_t n = static_cast<uint32_t>(__builtin_popcount(t.active_mask));
                auto& set = t.is_store ? stores : loads;
                uint64_t last = UINT64_MAX;  // neighbouring lanes mostly share a line: insert it once
                for (uint32_t i = 0; i < n && t.addr_index + i < w.addresses.size(); ++i) {
                    const uint64_t line = w.addresses[t.addr_index + i] / kLine;
                    if (line != last) set.insert(line);
                    last = line;
                }
            }
    for (uint64_t line : stores)
        if (loads.count(line)) return false;
    return true;
}

}  // namespace stacksim::core
