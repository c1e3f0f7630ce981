// SPDX-License-Identifier: Apache-2.0
// nvcc-compiled kernels using warp intrinsics, special registers, nanosleep and a cooperative
// grid barrier, run on the simulated GPU (small preset) and checked against CPU references.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "tests/system/sim_harness.h"

using namespace stacksim;
using stacksim::test::HarnessKernel;
using stacksim::test::run_kernel;

namespace {

std::string ptx_file(const std::string& name) {
    std::ifstream f(std::string(STACKSIM_SOURCE_DIR) + "/tests/data/ptx/" + name + ".ptx");
    REQUIRE(f);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

/// bmsk reference: the bits [pos, pos + width) of a 32-bit word.
uint32_t bit_range(uint32_t pos, uint32_t width) {
    uint64_t m = ((uint64_t{1} << width) - 1) << pos;
    return static_cast<uint32_t>(m);
}

}  // namespace

TEST_CASE("kernels: warp intrinsics on a partial warp match the CPU reference", "[system][warp]") {
    const unsigned threads = 2 * 64;
    std::vector<uint32_t> in(threads);
    for (unsigned t = 0; t < threads; ++t) {
        in[t] = 0x9E3779B9u * (t + 3) ^ (t * 0x85EBCA6Bu >> 7);
        if (t < 32) in[t] = (in[t] & 0x3FFFFFFFu) | 0x80000000u;  // warp 0: match.all agrees
    }
    std::vector<uint32_t> out;
    HarnessKernel k{ptx_file("warp_intrinsics"), "warp_intrinsics", {2, 1, 1}, {64, 1, 1}, nullptr};
    workloads::DevPtr d_in = 0, d_out = 0;
    k.setup = [&](workloads::HostApi& h) {
        d_in = h.upload(in);
        d_out = h.malloc(threads * 12 * 4);
        h.memset(d_out, 0, threads * 12 * 4);
        return workloads::LaunchArgs().ptr(d_in).ptr(d_out);
    };
    k.after = [&](workloads::HostApi& h) { h.download(out, d_out, threads * 12); };
    run_kernel(k);
    REQUIRE(out.size() == threads * 12);
    bool all_agreed = false, some_disagreed = false;
    for (unsigned t = 0; t < threads; ++t) {
        const unsigned lane = t % 32, base = t - lane;
        const uint32_t* o = &out[12 * t];
        INFO("thread " << t);
        if (lane >= 27) {
            for (unsigned i = 0; i < 12; ++i) CHECK(o[i] == 0);
            continue;
        }
        const uint32_t m = 0x07FFFFFFu, v = in[t];
        uint32_t any = 0, sum = 0, umax = 0, bxor = 0, bor = 0, band = ~0u;
        int32_t smin = INT32_MAX;
        bool agree = true;
        for (unsigned l = 0; l < 27; ++l) {
            const uint32_t x = in[base + l];
            if ((x & 7) == (v & 7)) any |= 1u << l;
            agree &= (x >> 30) == (in[base] >> 30);
            sum += x, umax = std::max(umax, x), smin = std::min(smin, int32_t(x));
            bxor ^= x, bor |= x & 0xF0, band &= x | 0xF;
        }
        all_agreed |= agree;
        some_disagreed |= !agree;
        CHECK(o[0] == m);
        CHECK(o[1] == any);
        CHECK(o[2] == (agree ? m : 0));
        CHECK(o[3] == (agree ? 1u : 0u));
        CHECK(o[4] == sum);
        CHECK(o[5] == uint32_t(smin));
        CHECK(o[6] == umax);
        CHECK(o[7] == (bxor ^ bor ^ band));
        CHECK(o[8] == (1u << lane) - 1);
        CHECK(o[9] == (1u << lane) - 1);
        CHECK(o[10] == 32000 + (32 - lane));
        const uint32_t clamp = bit_range(std::min(v & 63, 32u), std::min((v >> 6) & 63, 32u));
        const uint32_t wrap = bit_range((v >> 12) & 31, (v >> 20) & 31);
        CHECK(o[11] == (clamp ^ (wrap << 1)));
    }
    CHECK(all_agreed);
    CHECK(some_disagreed);
}

TEST_CASE("kernels: special registers with globaltimer and nanosleep on the simulated GPU", "[system][warp]") {
    const unsigned ctas = 6, sleep_ns = 1500;
    std::vector<uint64_t> out;
    HarnessKernel k{ptx_file("specials"), "specials", {ctas, 1, 1}, {96, 1, 1}, nullptr};
    k.dynamic_shared_bytes = 96 * 4;
    workloads::DevPtr d_out = 0;
    k.setup = [&](workloads::HostApi& h) {
        d_out = h.malloc(ctas * 8 * 8);
        return workloads::LaunchArgs().ptr(d_out).u32(sleep_ns);
    };
    k.after = [&](workloads::HostApi& h) { h.download(out, d_out, ctas * 8); };
    run_kernel(k);  // small: 4 SMs at 1 GHz, 1024 threads per SM
    for (unsigned b = 0; b < ctas; ++b) {
        const uint64_t* o = &out[8 * b];
        INFO("CTA " << b);
        CHECK(o[0] < 4);           // %smid
        CHECK(o[1] == 4);          // %nsmid
        CHECK(o[2] == 32);         // %nwarpid: warp slots per SM
        CHECK(o[3] == 96 * 4);     // %dynamic_smem_size
        CHECK(o[4] == 256 + 96 * 4);  // %total_smem_size: static + dynamic
        CHECK(o[6] >= sleep_ns);   // clock64 across the sleep, 1 cycle = 1 ns
        CHECK(o[6] < sleep_ns + 200);
        CHECK(o[5] >= o[6]);       // globaltimer spans the clock reads
        CHECK(o[5] < o[6] + 100);
        CHECK(o[7] == 2);          // %warpid of the CTA's last warp
    }
}

TEST_CASE("kernels: cooperative_groups grid barrier in a cooperative launch", "[system][warp]") {
    const unsigned ctas = 8, n = 5000;
    std::vector<int32_t> in(n), out;
    for (unsigned i = 0; i < n; ++i) in[i] = int32_t(i * 7919 % 201) - 100;
    int32_t total = 0;
    for (int32_t x : in) total += x;
    HarnessKernel k{ptx_file("grid_sync"), "grid_sync", {ctas, 1, 1}, {256, 1, 1}, nullptr};
    k.cooperative = true;
    workloads::DevPtr d_out = 0;
    k.setup = [&](workloads::HostApi& h) {
        const workloads::DevPtr d_in = h.upload(in);
        const workloads::DevPtr d_partial = h.malloc(ctas * 4);
        d_out = h.malloc(ctas * 4);
        return workloads::LaunchArgs().ptr(d_in).ptr(d_partial).ptr(d_out).i32(int32_t(n));
    };
    k.after = [&](workloads::HostApi& h) { h.download(out, d_out, ctas); };
    run_kernel(k);
    for (unsigned b = 0; b < ctas; ++b) CHECK(out[b] == total);
}

TEST_CASE("kernels: a cooperative launch larger than the GPU is one clear error", "[system][warp]") {
    // small: 4 SMs x 4 CTAs of 256 threads can be resident; 17 cannot.
    HarnessKernel k{ptx_file("grid_sync"), "grid_sync", {17, 1, 1}, {256, 1, 1}, nullptr};
    k.cooperative = true;
    k.setup = [&](workloads::HostApi& h) {
        const workloads::DevPtr p = h.malloc(4096);
        return workloads::LaunchArgs().ptr(p).ptr(p).ptr(p).i32(16);
    };
    CHECK_THROWS_WITH(run_kernel(k), Catch::Contains("cooperative launch of 'grid_sync' with 17 CTAs, but at most 16"));
}
