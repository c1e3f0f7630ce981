// SPDX-License-Identifier: Apache-2.0
// call: picks the callee of each lane (direct or through a function pointer) and runs the
// builtins of CUDA's device runtime (vprintf, __assertfail) in place.
#include <cstdio>

#include "core/call_site.h"
#include "core/ops_common.h"

namespace stacksim::core::ops {
namespace {

/// Reads `bytes` at a generic address of `lane` (global, shared or local window).
void read_generic(const Instruction& call, WarpExecContext& w, unsigned lane, uint64_t addr, void* dst, unsigned bytes) {
    Instruction probe;
    probe.space = StateSpace::Generic;
    probe.line = call.line;
    probe.file = call.file;
    probe.text = call.text;
    Operand a;
    a.kind = Operand::Kind::Addr;
    a.imm = addr;
    mem_read(probe, w, resolve_address(probe, a, w, lane, bytes, 1), dst, bytes);
}

std::string read_string(const Instruction& call, WarpExecContext& w, unsigned lane, uint64_t addr) {
    std::string s;
    if (addr == 0) return "(null)";
    for (unsigned i = 0; i < 4096; ++i) {
        char c = 0;
        read_generic(call, w, lane, addr + i, &c, 1);
        if (!c) break;
        s.push_back(c);
    }
    return s;
}

uint64_t frame_arg(const WarpExecContext& w, const CallSite& cs, size_t i, unsigned lane, unsigned bytes) {
    uint64_t v = 0;
    if (i < cs.args.size()) w.calls.read(w.calls.base + cs.args[i].first, lane, &v, std::min(bytes, cs.args[i].second));
    return v;
}

/// CUDA's device printf: the format string and an argument buffer (each argument aligned to
/// its size; float arguments are promoted to double, char and short to int).
std::string format_printf(const Instruction& call, WarpExecContext& w, unsigned lane, const std::string& fmt,
                          uint64_t args, int& converted) {
    std::string out;
    uint64_t off = 0;
    converted = 0;
    char buf[512];
    for (size_t i = 0; i < fmt.size(); ++i) {
        if (fmt[i] != '%') {
            out.push_back(fmt[i]);
            continue;
        }
        if (i + 1 < fmt.size() && fmt[i + 1] == '%') {
            out.push_back('%');
            ++i;
            continue;
        }
        size_t j = i + 1;
        // '*' widths are not supported (printed as written, like any unknown conversion).
        while (j < fmt.size() && std::strchr("-+ #0123456789.", fmt[j])) ++j;
        std::string length;
        while (j < fmt.size() && std::strchr("hlLqjzt", fmt[j])) length.push_back(fmt[j++]);
        if (j >= fmt.size()) {
            out.append(fmt, i, std::string::npos);
            break;
        }
        const char conv = fmt[j];
        std::string spec = fmt.substr(i, j - i - length.size());  // flags, width, precision
        const bool wide = length == "l" || length == "ll" || length == "j" || length == "z" || length == "t" || length == "q";
        unsigned size = 4;
        if (std::strchr("fFeEgGaA", conv) || conv == 's' || conv == 'p' || wide) size = 8;
        off = (off + size - 1) / size * size;
        uint64_t raw = 0;
        if (args) read_generic(call, w, lane, args + off, &raw, size);
        off += size;
        ++converted;
        int n = 0;
        if (std::strchr("fFeEgGaA", conv)) {
            double d;
            std::memcpy(&d, &raw, 8);
            n = std::snprintf(buf, sizeof buf, (spec + conv).c_str(), d);
        } else if (conv == 's') {
            const std::string s = read_string(call, w, lane, raw);
            n = std::snprintf(buf, sizeof buf, (spec + 's').c_str(), s.c_str());
        } else if (conv == 'p') {
            n = std::snprintf(buf, sizeof buf, (spec + "llx").c_str(), static_cast<unsigned long long>(raw));
            out += "0x";
        } else if (conv == 'c') {
            n = std::snprintf(buf, sizeof buf, (spec + 'c').c_str(), static_cast<int>(static_cast<unsigned char>(raw)));
        } else if (std::strchr("di", conv)) {
            const long long v = size == 8 ? static_cast<long long>(raw) : static_cast<long long>(static_cast<int32_t>(raw));
            n = std::snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(), v);
        } else if (std::strchr("uxXo", conv)) {
            const unsigned long long v = size == 8 ? raw : static_cast<uint32_t>(raw);
            n = std::snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(), v);
        } else {
            out.append(fmt, i, j - i + 1);  // unknown conversion: printed as written
            --converted;
            off -= size;
        }
        if (n > 0) out.append(buf, std::min<size_t>(size_t(n), sizeof buf - 1));
        i = j;
    }
    return out;
}

void run_vprintf(const Instruction& in, WarpExecContext& w, uint32_t mask) {
    const CallSite& cs = *in.call;
    for_lanes(mask, [&](unsigned l) {
        const uint64_t fmt_addr = frame_arg(w, cs, 0, l, 8), args = frame_arg(w, cs, 1, l, 8);
        int converted = 0;
        const std::string text = format_printf(in, w, l, read_string(in, w, l, fmt_addr), args, converted);
        std::fwrite(text.data(), 1, text.size(), stdout);
        if (cs.ret_bytes) w.calls.write(w.calls.base + cs.ret_offset, l, &converted, std::min(4u, cs.ret_bytes));
    });
    std::fflush(stdout);
}

[[noreturn]] void run_assertfail(const Instruction& in, WarpExecContext& w, uint32_t mask) {
    const CallSite& cs = *in.call;
    const unsigned l = static_cast<unsigned>(__builtin_ctz(mask));
    const std::string expr = read_string(in, w, l, frame_arg(w, cs, 0, l, 8));
    const std::string file = read_string(in, w, l, frame_arg(w, cs, 1, l, 8));
    const uint32_t line = static_cast<uint32_t>(frame_arg(w, cs, 2, l, 4));
    const std::string func = read_string(in, w, l, frame_arg(w, cs, 3, l, 8));
    const CtaExecContext& c = *w.cta;
    throw ExecError("assertion failed: " + file + ":" + std::to_string(line) + ": " + func + ": " + expr + " (block [" +
                    std::to_string(c.ctaid[0]) + "," + std::to_string(c.ctaid[1]) + "," + std::to_string(c.ctaid[2]) +
                    "], thread [" + std::to_string(w.tid_x[l]) + "," + std::to_string(w.tid_y[l]) + "," +
                    std::to_string(w.tid_z[l]) + "])");
}

}  // namespace

// call[.uni] [(ret),] func|%reg [, (args)] [, prototype]: the lanes of out.taken_mask enter
// module function out.call_function (core/calls.cpp does the frame and the SIMT stack). An
// indirect call's lanes are grouped by target; the lowest lane's group goes first.
void exec_call(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult& out) {
    const CallSite& cs = *in.call;
    uint32_t fn = 0;
    uint32_t group = mask;
    if (cs.callee >= 0) {
        fn = static_cast<uint32_t>(cs.callee);
    } else {
        const auto& funcs = cs.table->functions;
        auto target = [&](unsigned l) -> uint32_t {
            const uint64_t a = w.reg(in.src[0].reg, l);
            const uint64_t idx = (a - kFunctionAddressBase) / kFunctionAddressStride;
            if (a < kFunctionAddressBase + kFunctionAddressStride || (a - kFunctionAddressBase) % kFunctionAddressStride ||
                idx - 1 >= funcs.size() || (funcs[idx - 1].entry == kNoTarget && funcs[idx - 1].builtin == Builtin::None))
                fail(in, "indirect call to address " + std::to_string(a) + ", which is not a function of this kernel's module");
            return static_cast<uint32_t>(idx - 1);
        };
        fn = target(static_cast<unsigned>(__builtin_ctz(mask)));
        group = 0;
        for_lanes(mask, [&](unsigned l) {
            if (target(l) == fn) group |= 1u << l;
        });
    }
    const FunctionInfo& f = cs.table->functions.at(fn);
    out.call_function = fn;
    out.taken_mask = group;
    if (f.builtin == Builtin::Vprintf) {
        run_vprintf(in, w, group);
        out.taken_mask = 0;
    } else if (f.builtin == Builtin::AssertFail) {
        run_assertfail(in, w, group);
    }
    if (out.taken_mask && f.entry == kNoTarget) fail(in, "call to " + f.name + ", which has no body in this module");
}

}  // namespace stacksim::core::ops
