// SPDX-License-Identifier: Apache-2.0
// Device-function calls on the SIMT stack: frames, arguments, return values, recursion.
#include "core/calls.h"

#include <algorithm>

#include "core/call_site.h"
#include "core/functional_executor.h"
#include "core/ops_common.h"

namespace stacksim::core {
namespace {

[[noreturn]] void call_fail(const Instruction& in, const std::string& msg) {
    throw ExecError((in.file ? *in.file : std::string("<kernel>")) + ":" + std::to_string(in.line) + ": " + msg +
                    " '" + in.text + "'");
}

template <class F> void each_lane(uint32_t mask, F&& f) {
    for (; mask; mask &= mask - 1) f(static_cast<unsigned>(__builtin_ctz(mask)));
}

/// Copies `bytes` per lane inside the parameter memory.
void copy_param(CallFrames& c, uint32_t lanes, uint64_t from, uint64_t to, uint32_t bytes) {
    uint8_t buf[256];
    for (uint32_t done = 0; done < bytes; done += sizeof buf) {
        const unsigned n = std::min<uint32_t>(sizeof buf, bytes - done);
        each_lane(lanes, [&](unsigned l) {
            c.read(from + done, l, buf, n);
            c.write(to + done, l, buf, n);
        });
    }
}

/// Saves (or restores) each thread's words [offset, offset + bytes) of local memory: a
/// recursive function's .local data belongs to its activation, like its registers.
void local_words(const Instruction& in, WarpExecContext& w, uint32_t offset, uint32_t bytes, uint32_t* data, bool restore) {
    Instruction probe;
    probe.space = StateSpace::Local;
    probe.line = in.line;
    probe.file = in.file;
    Operand a;
    a.kind = Operand::Kind::Addr;
    size_t i = 0;
    for (uint32_t off = offset & ~3u; off < offset + bytes; off += 4) {
        a.imm = off;
        each_lane(w.valid_mask, [&](unsigned l) {
            const ops::MemRef m = ops::resolve_address(probe, a, w, l, 4, 4);
            if (restore) ops::mem_write(probe, w, m, &data[i++], 4);
            else ops::mem_read(probe, w, m, &data[i++], 4);
        });
    }
}

size_t local_words_count(const WarpExecContext& w, uint32_t offset, uint32_t bytes) {
    return size_t{(offset + bytes + 3) / 4 - offset / 4} * static_cast<unsigned>(__builtin_popcount(w.valid_mask));
}

void pop_frame(WarpExecContext& w) {
    CallFrames& c = w.calls;
    const CallFrame f = c.frames.back();
    c.frames.pop_back();
    if (f.ret_bytes) copy_param(c, f.lanes, f.ret_src, f.ret_dest, f.ret_bytes);
    if (f.saved_at != ~uint64_t{0}) {
        std::copy(c.saved_regs.begin() + static_cast<std::ptrdiff_t>(f.saved_at), c.saved_regs.end(),
                  w.regs.begin() + std::ptrdiff_t{f.reg_first} * kWarpSize);
        c.saved_regs.resize(f.saved_at);
    }
    if (f.local_saved_at != ~uint64_t{0}) {
        Instruction none;
        local_words(none, w, f.local_offset, f.local_bytes, c.saved_local.data() + f.local_saved_at, true);
        c.saved_local.resize(f.local_saved_at);
    }
    if (f.function < c.active.size() && c.active[f.function]) --c.active[f.function];
    c.base = f.caller_base;
}

}  // namespace

void enter_call(SimtStack& stack, WarpExecContext& w, const Instruction& in, uint32_t pc, const ExecResult& r) {
    const uint32_t callee_lanes = r.taken_mask;
    if (!callee_lanes) {  // builtins (vprintf, __assertfail) ran in the executor
        stack.advance(pc + 1);
        return;
    }
    const CallSite& cs = *in.call;
    const FunctionInfo& f = cs.table->functions.at(r.call_function);
    CallFrames& c = w.calls;
    if (c.frames.size() >= CallFrames::kMaxDepth)
        call_fail(in, "call depth exceeds " + std::to_string(CallFrames::kMaxDepth) + " (unbounded recursion in " + f.name + "?)");
    const uint32_t callee_base = c.base + cs.caller_frame_bytes;
    CallFrame fr;
    fr.function = r.call_function;
    fr.caller_base = c.base;
    fr.lanes = callee_lanes;
    fr.ret_src = callee_base + f.ret_offset;
    fr.ret_dest = c.base + cs.ret_offset;
    fr.ret_bytes = std::min(cs.ret_bytes, f.ret_bytes);
    fr.reg_first = f.reg_first;
    fr.reg_count = f.reg_count;
    if (c.active.size() <= r.call_function) c.active.resize(r.call_function + 1, 0);
    if (c.active[r.call_function]) {  // recursion: the running activation's registers are kept
        fr.saved_at = c.saved_regs.size();
        const auto first = w.regs.begin() + std::ptrdiff_t{f.reg_first} * kWarpSize;
        c.saved_regs.insert(c.saved_regs.end(), first, first + std::ptrdiff_t{f.reg_count} * kWarpSize);
        if (f.local_bytes) {
            fr.local_saved_at = c.saved_local.size();
            fr.local_offset = f.local_offset;
            fr.local_bytes = f.local_bytes;
            c.saved_local.resize(c.saved_local.size() + local_words_count(w, f.local_offset, f.local_bytes));
            local_words(in, w, f.local_offset, f.local_bytes, c.saved_local.data() + fr.local_saved_at, false);
        }
    }
    ++c.active[r.call_function];
    for (size_t i = 0; i < cs.args.size() && i < f.param_offset.size(); ++i)
        copy_param(c, callee_lanes, c.base + cs.args[i].first, callee_base + f.param_offset[i],
                   std::min(cs.args[i].second, f.param_bytes[i]));
    c.frames.push_back(fr);
    c.base = callee_base;
    stack.call(pc, f.entry, r.active_mask & ~callee_lanes, callee_lanes);
}

void return_from_call(SimtStack& stack, WarpExecContext& w, uint32_t lanes) {
    stack.ret(lanes);
    sync_call_frames(stack, w);
}

void sync_call_frames(const SimtStack& stack, WarpExecContext& w) {
    const size_t depth = stack.call_depth();
    while (w.calls.frames.size() > depth) pop_frame(w);
}

}  // namespace stacksim::core
