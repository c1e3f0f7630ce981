// SPDX-License-Identifier: Apache-2.0
// Device functions end to end: the corpus kernels with non-inlined calls, recursion, function
// pointers and a divergent callee run on the simulator and verify against CPU references.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "tests/system/cli_runner.h"
#include "tests/system/sim_harness.h"

using namespace stacksim;

namespace {
std::string noinline_ptx() {
    return test::read_file(std::string(STACKSIM_SOURCE_DIR) + "/tests/data/ptx_corpus/noinline.ptx");
}
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
constexpr uint32_t kN = 300;

double stat_sum(const test::HarnessRun& r, const std::string& suffix) {
    double v = 0;
    for (const auto& [name, x] : r.stats)
        if (name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) v += x;
    return v;
}
}  // namespace

TEST_CASE("calls: call_poly passes three .param arguments and returns a float", "[ptx][calls]") {
    std::vector<float> x(kN), y;
    for (uint32_t i = 0; i < kN; ++i) x[i] = float(i) * 0.25f - 8.f;  // exact in float
    workloads::DevPtr dx = 0, dy = 0;
    test::HarnessKernel k;
    k.ptx = noinline_ptx();
    k.entry = "_Z9call_polyPKfPfi";
    k.grid = {3, 1, 1};
    k.block = {128, 1, 1};
    k.setup = [&](workloads::HostApi& host) {
        dx = host.upload(x);
        dy = host.malloc(kN * 4);
        return workloads::LaunchArgs().ptr(dx).ptr(dy).i32(int32_t(kN));
    };
    test::run_kernel_then(k, [&](workloads::HostApi& host) { host.download(y, dy, kN); });
    REQUIRE(y.size() == kN);
    for (uint32_t i = 0; i < kN; ++i) CHECK(y[i] == (1.f * x[i] + 2.f) * x[i] + 3.f);
}

TEST_CASE("calls: recursive fib returns through divergent recursion depths", "[ptx][calls]") {
    std::vector<int32_t> out;
    workloads::DevPtr dout = 0;
    test::HarnessKernel k;
    k.ptx = noinline_ptx();
    k.entry = "_Z8call_fibPii";
    k.grid = {3, 1, 1};
    k.block = {128, 1, 1};
    k.setup = [&](workloads::HostApi& host) {
        dout = host.malloc(kN * 4);
        return workloads::LaunchArgs().ptr(dout).i32(int32_t(kN));
    };
    const test::HarnessRun r = test::run_kernel_then(k, [&](workloads::HostApi& host) { host.download(out, dout, kN); });
    REQUIRE(out.size() == kN);
    for (uint32_t i = 0; i < kN; ++i) CHECK(out[i] == fib(int(i % 12)));
    CHECK(stat_sum(r, "divergent_branches") > 0);
}

TEST_CASE("calls: call_indirect calls through a table of function pointers in .global data", "[ptx][calls]") {
    std::vector<float> x(kN), y;
    std::vector<int32_t> which(kN);
    for (uint32_t i = 0; i < kN; ++i) {
        x[i] = float(i) * 0.5f - 20.f;
        which[i] = int32_t((i * 7) % 5);  // odd and even mixed within each warp
    }
    workloads::DevPtr dx = 0, dy = 0, dw = 0;
    test::HarnessKernel k;
    k.ptx = noinline_ptx();
    k.entry = "_Z13call_indirectPKfPfPKii";
    k.grid = {3, 1, 1};
    k.block = {128, 1, 1};
    k.setup = [&](workloads::HostApi& host) {
        dx = host.upload(x);
        dw = host.upload(which);
        dy = host.malloc(kN * 4);
        return workloads::LaunchArgs().ptr(dx).ptr(dy).ptr(dw).i32(int32_t(kN));
    };
    test::run_kernel_then(k, [&](workloads::HostApi& host) { host.download(y, dy, kN); });
    REQUIRE(y.size() == kN);
    for (uint32_t i = 0; i < kN; ++i) CHECK(y[i] == ((which[i] & 1) ? -x[i] : x[i] * x[i]));
}

TEST_CASE("calls: a callee that diverges reconverges before it returns", "[ptx][calls]") {
    std::vector<int32_t> out;
    workloads::DevPtr dout = 0;
    test::HarnessKernel k;
    k.ptx = noinline_ptx();
    k.entry = "_Z14call_divergentPii";
    k.grid = {3, 1, 1};
    k.block = {128, 1, 1};
    k.setup = [&](workloads::HostApi& host) {
        dout = host.malloc(kN * 4);
        return workloads::LaunchArgs().ptr(dout).i32(int32_t(kN));
    };
    test::run_kernel_then(k, [&](workloads::HostApi& host) { host.download(out, dout, kN); });
    REQUIRE(out.size() == kN);
    for (uint32_t i = 0; i < kN; ++i) CHECK(out[i] == ((i & 1) ? int32_t(i) * 3 : -int32_t(i)));
}
