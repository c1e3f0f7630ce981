// SPDX-License-Identifier: Apache-2.0
// Memory instructions: ld st (scalar and vector, param/global/shared/generic), atom red.
#include <algorithm>

#include "core/ops_common.h"
#include "sim/sparse_memory.h"

namespace stacksim::core::ops {
namespace {

inline uint64_t width_mask(unsigned bytes) { return bytes >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * bytes)) - 1; }

inline bool is_signed_type(DataType t) {
    return t == DataType::S8 || t == DataType::S16 || t == DataType::S32 || t == DataType::S64;
}

/// Register bits of a loaded element: signed types narrower than the destination register
/// are sign-extended to the register's width; everything else is zero-extended.
inline uint64_t extend_loaded(const Instruction& in, uint64_t raw, unsigned tb) {
    if (in.dst_bytes > tb && is_signed_type(in.type)) {
        const unsigned sh = 64 - 8 * tb;
        raw = uint64_t(int64_t(raw << sh) >> sh) & width_mask(in.dst_bytes);
    }
    return raw;
}

/// Destination register of element k of a load.
inline uint16_t element_reg(const Operand& d, unsigned k) {
    return d.kind == Operand::Kind::Vector ? d.vec[k] : d.reg;
}

/// Records the access kind in `out` and returns the resolved space of all lanes
/// (Shared only when every lane's access is to shared memory).
inline void record(ExecResult& out, bool any_global, unsigned bytes) {
    out.space = any_global ? StateSpace::Global : StateSpace::Shared;
    out.access_bytes = static_cast<uint8_t>(bytes);
}

/// new = op(old, b, c) for atom/red; returns the new memory value.
template <class T> inline T atomic_apply(const Instruction& in, T old, T b, T c) {
    switch (static_cast<AtomOp>(in.mode)) {
    case AtomOp::Add:
        if constexpr (kIsFloat<T>) return old + b;
        else return static_cast<T>(uint64_t(old) + uint64_t(b));
    case AtomOp::Min:
        if constexpr (kIsFloat<T>) return std::fmin(old, b);
        else return std::min(old, b);
    case AtomOp::Max:
        if constexpr (kIsFloat<T>) return std::fmax(old, b);
        else return std::max(old, b);
    case AtomOp::Exch: return b;
    case AtomOp::Cas: return to_bits(old) == to_bits(b) ? c : old;
    default: break;
    }
    if constexpr (!kIsFloat<T>) {
        switch (static_cast<AtomOp>(in.mode)) {
        case AtomOp::Inc: return old >= b ? T(0) : T(old + 1);
        case AtomOp::Dec: return (old == 0 || old > b) ? b : T(old - 1);
        case AtomOp::And: return T(old & b);
        case AtomOp::Or: return T(old | b);
        case AtomOp::Xor: return T(old ^ b);
        default: break;
        }
    }
    fail(in, "unsupported atomic operation");
}

/// atom / red: lanes run one after another in lane order.
template <bool kReturn> void atomic(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult& out) {
    const unsigned tb = type_bytes(in.type);
    out.is_atomic = true;
    bool any_global = false;
    with_num(in, in.type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        for_lanes(mask, [&](unsigned l) {
            MemRef m = resolve_address(in, in.src[0], w, l, tb, tb);
            out.addr[l] = m.addr;
            any_global |= !m.shared;
            T old;
            mem_read(in, w, m, &old, tb);
            T b = read<T>(in.src[1], w, l);
            T c = in.num_src > 2 ? read<T>(in.src[2], w, l) : T(0);
            T nv = atomic_apply<T>(in, old, b, c);
            mem_write(in, w, m, &nv, tb);
            if constexpr (kReturn) write<T>(in.dst[0], w, l, old);
        });
    });
    record(out, any_global, tb);
    if (tb == 2) {  // atom.cas.b16: the memory system sees a CAS on the containing 32-bit word
        for_lanes(mask, [&](unsigned l) { out.addr[l] &= ~uint64_t{3}; });
        out.access_bytes = 4;
    }
}

/// ld.param of a call's argument or return value (registers on hardware): the running
/// function's parameter frame (core/call_frames.h). Out of line: the common loads stay short.
[[gnu::noinline]] void ld_param_frame(const Instruction& in, WarpExecContext& w, uint32_t mask) {
    const unsigned tb = type_bytes(in.type), n = in.vec;
    const Operand& a = in.src[0];
    for_lanes(mask, [&](unsigned l) {
        const uint64_t off = w.calls.base + a.imm + (a.reg != kNoReg ? w.reg(a.reg, l) : 0);
        for (unsigned k = 0; k < n; ++k) {
            uint64_t raw = 0;
            w.calls.read(off + k * tb, l, &raw, tb);
            if (uint16_t r = element_reg(in.dst[0], k); r != kNoReg) w.reg(r, l) = extend_loaded(in, raw, tb);
        }
    });
}

/// The fast path of ld/st: one element of TB (4 or 8) bytes per lane, to .shared or .global,
/// every lane aligned and in bounds. Fills `addr` (per lane) and returns false when an access
/// needs the general path (which then reports the exact error, if any).
template <unsigned TB>
bool simple_addresses(const Instruction& in, const Operand& a, const WarpExecContext& w, uint32_t mask,
                      uint64_t* addr) {
    const bool shared = in.space == StateSpace::Shared;
    const uint64_t limit = shared ? w.cta->shared.size() : 0;
    bool ok = true;
    for_lanes(mask, [&](unsigned l) {
        uint64_t x = a.imm;
        if (a.reg != kNoReg) x += w.regs[a.reg * kWarpSize + l];
        if (shared) {
            x &= 0xffffffffu;
            ok &= x <= limit && limit - x >= TB;
        }
        ok &= (x & (TB - 1)) == 0;
        addr[l] = x;
    });
    return ok && (shared || w.cta->global);
}

template <unsigned TB>
bool ld_fast(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult& out) {
    uint64_t addr[kWarpSize];
    if (!simple_addresses<TB>(in, in.src[0], w, mask, addr)) return false;
    const bool shared = in.space == StateSpace::Shared;
    const uint16_t r = in.dst[0].reg;
    uint64_t page_no = ~uint64_t{0};
    const uint8_t* page = nullptr;
    for_lanes(mask, [&](unsigned l) {
        out.addr[l] = addr[l];
        uint64_t raw = 0;
        if (shared) {
            std::memcpy(&raw, w.cta->shared.data() + addr[l], TB);
        } else {
            // Aligned accesses never straddle a page: one lookup per page the warp touches.
            if (addr[l] / sim::SparseMemory::kPageBytes != page_no) {
                page_no = addr[l] / sim::SparseMemory::kPageBytes;
                page = w.cta->global->page(page_no);
            }
            if (page) std::memcpy(&raw, page + addr[l] % sim::SparseMemory::kPageBytes, TB);
        }
        if (r != kNoReg) w.reg(r, l) = extend_loaded(in, raw, TB);
    });
    out.is_load = true;
    record(out, !shared && mask != 0, TB);  // as the general path: no lane, no global access
    return true;
}

template <unsigned TB>
bool st_fast(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult& out) {
    uint64_t addr[kWarpSize];
    if (!simple_addresses<TB>(in, in.src[0], w, mask, addr)) return false;
    const bool shared = in.space == StateSpace::Shared;
    const Operand& v = in.src[1];
    uint64_t page_no = ~uint64_t{0};
    uint8_t* page = nullptr;
    // Lane order is kept: when lanes store to one address, the highest lane's value stays.
    for_lanes(mask, [&](unsigned l) {
        out.addr[l] = addr[l];
        const uint64_t raw = read_raw(v, w, l);
        if (shared) {
            std::memcpy(w.cta->shared.data() + addr[l], &raw, TB);
        } else {
            if (addr[l] / sim::SparseMemory::kPageBytes != page_no) {
                page_no = addr[l] / sim::SparseMemory::kPageBytes;
                page = w.cta->global->page_for_write(page_no);
            }
            std::memcpy(page + addr[l] % sim::SparseMemory::kPageBytes, &raw, TB);
        }
    });
    out.is_store = true;
    record(out, !shared && mask != 0, TB);
    return true;
}

/// Whether ld/st `in` (data operand `data`, elements of `tb` bytes) may take the fast path:
/// the checks that do not depend on the lanes.
inline bool fast_candidate(const Instruction& in, const Operand& data, unsigned tb) {
    return in.vec == 1 && (in.space == StateSpace::Shared || in.space == StateSpace::Global) &&
           data.kind != Operand::Kind::Vector && (tb == 4 || tb == 8);
}

}  // namespace

void exec_ld(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult& out) {
    const unsigned tb = type_bytes(in.type), n = in.vec, total = tb * n;
    const Operand& a = in.src[0];
    const Operand& d = in.dst[0];
    if (in.space == StateSpace::Param) {  // constant bank read, not a memory access
        if (in.mode == kParamFrame) return ld_param_frame(in, w, mask);
        const std::vector<uint8_t>* p = w.cta->params;
        for_lanes(mask, [&](unsigned l) {
            uint64_t off = a.imm + (a.reg != kNoReg ? w.reg(a.reg, l) : 0);
            if (!p || off > p->size() || p->size() - off < total)
                fail(in, "parameter read out of bounds (offset " + std::to_string(off) + ")");
            for (unsigned k = 0; k < n; ++k) {
                uint64_t raw = 0;
                std::memcpy(&raw, p->data() + off + k * tb, tb);
                if (uint16_t r = element_reg(d, k); r != kNoReg) w.reg(r, l) = extend_loaded(in, raw, tb);
            }
        });
        return;
    }
    if (fast_candidate(in, d, tb) && (tb == 4 ? ld_fast<4>(in, w, mask, out) : ld_fast<8>(in, w, mask, out))) return;
    out.is_load = true;
    bool any_global = false, any_local = false;
    for_lanes(mask, [&](unsigned l) {
        MemRef m = resolve_address(in, a, w, l, total, total);
        out.addr[l] = m.addr;
        any_global |= !m.shared;
        any_local |= m.word_stride != 0;
        uint8_t buf[32];
        mem_read(in, w, m, buf, total);
        for (unsigned k = 0; k < n; ++k) {
            uint64_t raw = 0;
            std::memcpy(&raw, buf + k * tb, tb);
            if (uint16_t r = element_reg(d, k); r != kNoReg) w.reg(r, l) = extend_loaded(in, raw, tb);
        }
    });
    record(out, any_global, total);
    if (any_local) out.space = StateSpace::Local;
    // ld.const: served by the SM's constant cache (Sm::constant_latency), not the L1 path.
    if (in.space == StateSpace::Const) out.space = mask ? StateSpace::Const : StateSpace::None;
}

void exec_st(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult& out) {
    const unsigned tb = type_bytes(in.type), n = in.vec, total = tb * n;
    const Operand& v = in.src[1];
    if (__builtin_expect(in.space == StateSpace::Param, 0)) {  // st.param: a call's argument or return value
        for_lanes(mask, [&](unsigned l) {
            const uint64_t off = w.calls.base + in.src[0].imm + (in.src[0].reg != kNoReg ? w.reg(in.src[0].reg, l) : 0);
            if (off + total > (uint64_t{1} << 24)) fail(in, "parameter frame offset out of range");
            for (unsigned k = 0; k < n; ++k) {
                uint64_t raw = v.kind == Operand::Kind::Vector ? w.reg(v.vec[k], l) : read_raw(v, w, l);
                w.calls.write(off + k * tb, l, &raw, tb);
            }
        });
        return;
    }
    if (fast_candidate(in, v, tb) && (tb == 4 ? st_fast<4>(in, w, mask, out) : st_fast<8>(in, w, mask, out))) return;
    out.is_store = true;
    bool any_global = false, any_local = false;
    for_lanes(mask, [&](unsigned l) {
        MemRef m = resolve_address(in, in.src[0], w, l, total, total);
        out.addr[l] = m.addr;
        any_global |= !m.shared;
        any_local |= m.word_stride != 0;
        uint8_t buf[32];
        for (unsigned k = 0; k < n; ++k) {
            uint64_t raw = v.kind == Operand::Kind::Vector ? w.reg(v.vec[k], l) : read_raw(v, w, l);
            std::memcpy(buf + k * tb, &raw, tb);
        }
        mem_write(in, w, m, buf, total);
    });
    record(out, any_global, total);
    if (any_local) out.space = StateSpace::Local;
}

void exec_atom(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult& out) {
    atomic<true>(in, w, mask, out);
}

void exec_red(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult& out) {
    atomic<false>(in, w, mask, out);
}

}  // namespace stacksim::core::ops
