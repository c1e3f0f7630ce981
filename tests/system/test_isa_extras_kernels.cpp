// SPDX-License-Identifier: Apache-2.0
// Corpus kernels that use bar.red (__syncthreads_count/and/or), sad/vabsdiff4 and the 16-bit
// atomicCAS run on the simulator and verify against CPU references.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "tests/system/cli_runner.h"
#include "tests/system/sim_harness.h"

using namespace stacksim;

namespace {
std::string corpus(const std::string& name) {
    return test::read_file(std::string(STACKSIM_SOURCE_DIR) + "/tests/data/ptx_corpus/" + name);
}
}  // namespace

TEST_CASE("bar.red: sync_counts reduces a predicate over each CTA (count, and, or)", "[ptx][barred]") {
    constexpr uint32_t ctas = 4, threads = 128;
    std::vector<int32_t> in(ctas * threads), out;
    for (uint32_t c = 0; c < ctas; ++c)
        for (uint32_t t = 0; t < threads; ++t)
            // CTA 0: all positive; CTA 1: none; CTAs 2, 3: some (a different count each).
            in[c * threads + t] = c == 0 ? 1 : c == 1 ? -1 : (t % (c + 1) == 0 ? 5 : 0);
    workloads::DevPtr d_in = 0, d_out = 0;
    test::HarnessKernel k;
    k.ptx = corpus("sync_fences.ptx");
    k.entry = "_Z11sync_countsPKiPi";
    k.grid = {ctas, 1, 1};
    k.block = {threads, 1, 1};
    k.setup = [&](workloads::HostApi& host) {
        d_in = host.upload(in);
        d_out = host.malloc(ctas * 4);
        return workloads::LaunchArgs().ptr(d_in).ptr(d_out);
    };
    test::run_kernel_then(k, [&](workloads::HostApi& host) { host.download(out, d_out, ctas); });
    REQUIRE(out.size() == ctas);
    for (uint32_t c = 0; c < ctas; ++c) {
        int count = 0;
        for (uint32_t t = 0; t < threads; ++t) count += in[c * threads + t] > 0;
        const int want = count + 10000 * (count == int(threads)) + 20000 * (count > 0);
        CHECK(out[c] == want);
    }
}

TEST_CASE("sad and vabsdiff4: sad_kernel matches __sad + __usad + __vabsdiffu4", "[ptx][video]") {
    constexpr uint32_t n = 200;
    std::vector<uint32_t> a(n), b(n), out;
    uint32_t x = 99;
    for (uint32_t i = 0; i < n; ++i) {
        x = x * 1664525u + 1013904223u;
        a[i] = x;
        x = x * 1664525u + 1013904223u;
        b[i] = x;
    }
    workloads::DevPtr da = 0, db = 0, dout = 0;
    test::HarnessKernel k;
    k.ptx = corpus("bits.ptx");
    k.entry = "_Z10sad_kernelPKjS0_Pji";
    k.grid = {2, 1, 1};
    k.block = {128, 1, 1};
    k.setup = [&](workloads::HostApi& host) {
        da = host.upload(a);
        db = host.upload(b);
        dout = host.malloc(n * 4);
        return workloads::LaunchArgs().ptr(da).ptr(db).ptr(dout).i32(int32_t(n));
    };
    test::run_kernel_then(k, [&](workloads::HostApi& host) { host.download(out, dout, n); });
    REQUIRE(out.size() == n);
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t s = uint32_t(std::llabs(int64_t(int32_t(a[i])) - int64_t(int32_t(b[i]))));
        const uint32_t us = 7 + (a[i] > b[i] ? a[i] - b[i] : b[i] - a[i]);
        uint32_t v = 0;
        for (unsigned k2 = 0; k2 < 4; ++k2) {
            const int x1 = (a[i] >> (8 * k2)) & 0xFF, y1 = (b[i] >> (8 * k2)) & 0xFF;
            v |= uint32_t(std::abs(x1 - y1)) << (8 * k2);
        }
        INFO("element " << i);
        CHECK(out[i] == s + us + v);
    }
}

TEST_CASE("atom.cas.b16: cas16 gives every thread a distinct ticket", "[ptx][atomic]") {
    constexpr uint32_t threads = 2 * 64;
    std::vector<uint16_t> init{1000}, counter, out;
    workloads::DevPtr dp = 0, dout = 0;
    test::HarnessKernel k;
    k.ptx = corpus("atomics.ptx");
    k.entry = "_Z5cas16PtS_";
    k.grid = {2, 1, 1};
    k.block = {64, 1, 1};
    k.setup = [&](workloads::HostApi& host) {
        dp = host.upload(init);
        dout = host.malloc(threads * 2);
        return workloads::LaunchArgs().ptr(dp).ptr(dout);
    };
    test::run_kernel_then(k, [&](workloads::HostApi& host) {
        host.download(out, dout, threads);
        host.download(counter, dp, 1);
    });
    REQUIRE(out.size() == threads);
    CHECK(counter.at(0) == 1000 + threads);
    std::sort(out.begin(), out.end());
    std::vector<uint16_t> want(threads);
    std::iota(want.begin(), want.end(), uint16_t(1000));
    CHECK(out == want);
}
