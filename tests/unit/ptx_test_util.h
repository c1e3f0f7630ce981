// SPDX-License-Identifier: Apache-2.0
// Test helpers for the PTX front end and the functional executor: file loading, PTX
// snippets, a one-warp fixture and a per-thread reference interpreter for whole kernels.
#pragma once
#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/exec_context.h"
#include "core/functional_executor.h"
#include "core/kernel.h"
#include "sim/sparse_memory.h"
#include "workloads/ptx_parser.h"

namespace stacksim::test {

/// Text of a file below the repository root.
inline std::string read_source_file(const std::string& rel) {
    std::ifstream f(std::string(STACKSIM_SOURCE_DIR) + "/" + rel);
    if (!f) throw std::runtime_error("cannot open " + rel);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

/// Number of lines of the snippet header below (the body starts on line kSnippetFirstLine).
constexpr uint32_t kSnippetFirstLine = 13;

/// A kernel `t(.param .u64 p0, .param .u64 p1, .param .u32 p2)` with registers %p0-7,
/// %h0-7 (b16), %r0-15 (b32), %rd0-15 (b64), %f0-15 (f32), %fd0-7 (f64) and a 256-byte
/// .shared array `sh`; `body` starts at line kSnippetFirstLine.
inline std::string snippet(const std::string& body) {
    return ".version 8.0\n.target sm_75\n.address_size 64\n"
           ".visible .entry t(.param .u64 p0, .param .u64 p1, .param .u32 p2)\n{\n"
           ".reg .pred %p<8>;\n.reg .b16 %h<8>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n"
           ".reg .f32 %f<16>;\n.reg .f64 %fd<8>;\n.shared .align 16 .b8 sh[256];\n" +
           body + "\n}\n";
}

/// Parses snippet(body) and returns its kernel.
inline core::Kernel parse_snippet(const std::string& body) {
    core::Module m = workloads::parse_ptx(snippet(body), "t.ptx");
    REQUIRE(m.kernels.size() == 1);
    return m.kernels[0];
}

/// One full warp of one CTA with global memory, 256 bytes of shared memory and params.
struct WarpFixture {
    core::Kernel kernel;
    sim::SparseMemory mem;
    std::vector<uint8_t> params;
    core::CtaExecContext cta;
    core::WarpExecContext warp;
    core::ExecResult res;

    explicit WarpFixture(const std::string& body) : kernel(parse_snippet(body)) {
        params.assign(kernel.param_bytes, 0);
        cta.ntid = {32, 1, 1};
        cta.shared.assign(256, 0);
        cta.params = &params;
        cta.global = &mem;
        warp.cta = &cta;
        warp.valid_mask = 0xFFFFFFFFu;
        for (unsigned l = 0; l < core::kWarpSize; ++l) warp.tid_x[l] = l;
        warp.regs.assign(kernel.num_regs * core::kWarpSize, 0);
    }
    uint16_t id(const std::string& name) const {
        for (size_t i = 0; i < kernel.reg_names.size(); ++i)
            if (kernel.reg_names[i] == name) return static_cast<uint16_t>(i);
        throw std::runtime_error("no register " + name);
    }
    uint64_t& reg(const std::string& name, unsigned lane = 0) { return warp.reg(id(name), lane); }
    /// Sets `name` to `v` in every lane.
    void set_all(const std::string& name, uint64_t v) {
        for (unsigned l = 0; l < core::kWarpSize; ++l) reg(name, l) = v;
    }
    /// Executes instruction `i` for `mask`.
    core::ExecResult& exec(size_t i, uint32_t mask = 0xFFFFFFFFu) {
        core::execute(kernel.code.at(i), warp, mask, res);
        return res;
    }
    /// Executes every instruction in order with `mask` (straight-line snippets).
    void run(uint32_t mask = 0xFFFFFFFFu) {
        for (size_t i = 0; i < kernel.code.size(); ++i) exec(i, mask);
    }
};

inline uint64_t fbits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
inline float bitsf(uint64_t b) {
    uint32_t u = static_cast<uint32_t>(b);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
inline uint64_t dbits(double d) {
    uint64_t u;
    std::memcpy(&u, &d, 8);
    return u;
}
inline double bitsd(uint64_t b) {
    double d;
    std::memcpy(&d, &b, 8);
    return d;
}

/// Runs a whole grid functionally, one thread at a time (each thread is a one-lane mask of
/// its warp) with __syncthreads support: a reference interpreter for non-warp-synchronous
/// kernels. Throws on a step budget overrun.
inline void run_grid(const core::Kernel& k, std::array<uint32_t, 3> grid, uint32_t block,
                     const std::vector<uint8_t>& params, sim::SparseMemory& mem,
                     uint32_t dynamic_shared = 0) {
    for (uint32_t c = 0; c < grid[0] * grid[1] * grid[2]; ++c) {
        core::CtaExecContext cta;
        cta.ctaid = {c % grid[0], (c / grid[0]) % grid[1], c / (grid[0] * grid[1])};
        cta.ntid = {block, 1, 1};
        cta.nctaid = grid;
        cta.shared.assign(k.static_shared_bytes + dynamic_shared + 64, 0);
        cta.params = &params;
        cta.global = &mem;
        const uint32_t nwarps = (block + 31) / 32;
        std::vector<core::WarpExecContext> warps(nwarps);
        for (uint32_t w = 0; w < nwarps; ++w) {
            warps[w].cta = &cta;
            warps[w].warp_in_cta = w;
            warps[w].regs.assign(k.num_regs * core::kWarpSize, 0);
            for (unsigned l = 0; l < 32 && w * 32 + l < block; ++l) {
                warps[w].tid_x[l] = w * 32 + l;
                warps[w].valid_mask |= 1u << l;
            }
        }
        enum State { Running, AtBarrier, Done };
        std::vector<State> state(block, Running);
        std::vector<uint32_t> pc(block, 0);
        uint64_t budget = 50'000'000;
        core::ExecResult r;
        while (true) {
            bool any_running = false;
            for (uint32_t t = 0; t < block; ++t) {
                while (state[t] == Running) {
                    if (--budget == 0) throw std::runtime_error("step budget exhausted");
                    if (pc[t] >= k.code.size()) throw std::runtime_error("ran off the end");
                    const core::Instruction& in = k.code[pc[t]];
                    const uint32_t lane_mask = 1u << (t % 32);
                    core::execute(in, warps[t / 32], lane_mask, r);
                    switch (in.control()) {
                    case core::ControlKind::Branch: pc[t] = r.taken_mask ? in.target : pc[t] + 1; break;
                    case core::ControlKind::Exit:
                        if (r.active_mask) state[t] = Done;
                        else ++pc[t];
                        break;
                    case core::ControlKind::Barrier:
                        ++pc[t];
                        if (r.active_mask) state[t] = AtBarrier;
                        break;
                    default: ++pc[t]; break;
                    }
                }
                any_running = true;
            }
            (void)any_running;
            bool all_done = true, any_barrier = false;
            for (uint32_t t = 0; t < block; ++t) {
                all_done &= state[t] == Done;
                any_barrier |= state[t] == AtBarrier;
            }
            if (all_done) break;
            if (!any_barrier) throw std::runtime_error("deadlock");
            for (uint32_t t = 0; t < block; ++t)
                if (state[t] == AtBarrier) state[t] = Running;
        }
    }
}

/// Appends a little-endian value to a parameter buffer at its natural alignment.
template <class T> void push_param(std::vector<uint8_t>& buf, T v) {
    while (buf.size() % sizeof(T)) buf.push_back(0);
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    buf.insert(buf.end(), p, p + sizeof(T));
}

}  // namespace stacksim::test
