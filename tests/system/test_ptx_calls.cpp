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

TEST_CASE("calls: precise sin/cos/tan of huge doubles take the math library's slow path (a .func with carry arithmetic)",
          "[ptx][calls][carry]") {
    // |x| >= 2^27 or so leaves the fast Cody-Waite reduction: nvcc's sin/cos/tan call
    // __internal_trig_reduction_slowpathd (Payne-Hanek with 128-bit carry chains and a local array).
    const std::vector<double> x = {1e10, -3.5e12, 1e15, 7.25e18, 1e22, -1e100, 1e300, 0.75, -2.0, 123456789.0,
                                   4.0e9, 6.02e23, 1.0e200, -9.9e99, 2.5, 1e8};
    const uint32_t n = static_cast<uint32_t>(x.size());
    std::vector<double> out;
    workloads::DevPtr dx = 0, dout = 0;
    test::HarnessKernel k;
    k.ptx = test::read_file(std::string(STACKSIM_SOURCE_DIR) + "/tests/data/ptx_corpus/math_precise.ptx");
    k.entry = "_Z19precise_double_trigPKdPdi";
    k.grid = {1, 1, 1};
    k.block = {32, 1, 1};
    k.setup = [&](workloads::HostApi& host) {
        dx = host.upload(x);
        dout = host.malloc(n * 8);
        return workloads::LaunchArgs().ptr(dx).ptr(dout).i32(int32_t(n));
    };
    test::run_kernel_then(k, [&](workloads::HostApi& host) { host.download(out, dout, n); });
    REQUIRE(out.size() == n);
    for (uint32_t i = 0; i < n; ++i) {
        // CUDA's sin, cos and tan are within 2 ulp of the exact values (CUDA Programming Guide,
        // "Mathematical Functions"); a wrong reduction is off by far more.
        const double s = std::sin(x[i]), c = std::cos(x[i]), t = std::tan(x[i]);
        const double want = s * c + t, bound = 1e-14 * (std::fabs(s * c) + std::fabs(t)) + 1e-300;
        INFO("x = " << x[i] << ": got " << out[i] << ", want " << want);
        CHECK(std::fabs(out[i] - want) <= bound);
    }
}

namespace {
int depth_sum_ref(const std::vector<int32_t>& buf, int d) {
    int local[8];
    for (int k = 0; k < 8; ++k) local[k] = buf[size_t((d + k) & 15)] + d;
    if (d == 0) return local[0];
    const int r = depth_sum_ref(buf, d - 1);
    return local[(d * 3 + buf[size_t(d)]) & 7] + r;
}

void run_recursion_local(const std::string& file) {
    std::vector<int32_t> buf(16), out;
    for (int i = 0; i < 16; ++i) buf[size_t(i)] = i * 7 % 5;
    workloads::DevPtr db = 0, dout = 0;
    test::HarnessKernel k;
    k.ptx = test::read_file(std::string(STACKSIM_SOURCE_DIR) + "/tests/data/ptx/" + file);
    k.entry = "_Z7recursePKiPi";
    k.grid = {1, 1, 1};
    k.block = {64, 1, 1};
    k.setup = [&](workloads::HostApi& host) {
        db = host.upload(buf);
        dout = host.malloc(64 * 4);
        return workloads::LaunchArgs().ptr(db).ptr(dout);
    };
    test::run_kernel_then(k, [&](workloads::HostApi& host) { host.download(out, dout, 64); });
    REQUIRE(out.size() == 64);
    for (int t = 0; t < 64; ++t) CHECK(out[size_t(t)] == fib(t % 10) * 1000 + depth_sum_ref(buf, t % 6));
}
}  // namespace

TEST_CASE("calls: each recursive activation keeps its own local array (-O3)", "[ptx][calls][local]") {
    run_recursion_local("recursion_local.ptx");
}

TEST_CASE("calls: each recursive activation keeps its own stack frame (-G)", "[ptx][calls][local]") {
    run_recursion_local("recursion_local_debug.ptx");
}

namespace {
std::string func_shared_ptx() {
    return test::read_file(std::string(STACKSIM_SOURCE_DIR) + "/tests/data/ptx_corpus/func_shared.ptx");
}
constexpr uint32_t kBlocks = 5, kThreads = 256;
// Small integers: every partial sum is exact in float, whatever the order.
float input_value(uint32_t i) { return float(int(i % 23) - 11); }
float block_total(uint32_t b) {
    float s = 0.f;
    for (uint32_t t = 0; t < kThreads; ++t) s += input_value(b * kThreads + t);
    return s;
}
}  // namespace

TEST_CASE("calls: a __shared__ array in a non-inlined function is its own per-CTA static, after the kernel's",
          "[ptx][calls][shared]") {
    std::vector<float> in(kBlocks * kThreads), out;
    for (uint32_t i = 0; i < in.size(); ++i) in[i] = input_value(i);
    workloads::DevPtr din = 0, dout = 0;
    test::HarnessKernel k;
    k.ptx = func_shared_ptx();
    k.entry = "_Z14func_block_sumPKfPf";
    k.grid = {kBlocks, 1, 1};
    k.block = {kThreads, 1, 1};
    k.setup = [&](workloads::HostApi& host) {
        din = host.upload(in);
        dout = host.malloc(kBlocks * 4);
        return workloads::LaunchArgs().ptr(din).ptr(dout);
    };
    test::run_kernel_then(k, [&](workloads::HostApi& host) { host.download(out, dout, kBlocks); });
    REQUIRE(out.size() == kBlocks);
    // The kernel's table (mine[b % 32] = 1000 b) survives the function's use of its own buffer.
    for (uint32_t b = 0; b < kBlocks; ++b) CHECK(out[b] == block_total(b) + 1000.f * float(b));
}

TEST_CASE("calls: dynamic shared memory starts after the kernel's and its functions' statics", "[ptx][calls][shared]") {
    std::vector<float> in(kBlocks * kThreads), out;
    for (uint32_t i = 0; i < in.size(); ++i) in[i] = input_value(i);
    workloads::DevPtr din = 0, dout = 0;
    test::HarnessKernel k;
    k.ptx = func_shared_ptx();
    k.entry = "_Z10func_mixedPKfPf";
    k.grid = {kBlocks, 1, 1};
    k.block = {kThreads, 1, 1};
    k.dynamic_shared_bytes = kThreads * 4;
    k.setup = [&](workloads::HostApi& host) {
        din = host.upload(in);
        dout = host.malloc(in.size() * 4);
        return workloads::LaunchArgs().ptr(din).ptr(dout);
    };
    test::run_kernel_then(k, [&](workloads::HostApi& host) { host.download(out, dout, in.size()); });
    REQUIRE(out.size() == in.size());
    for (uint32_t b = 0; b < kBlocks; ++b)
        for (uint32_t t = 0; t < kThreads; ++t) {
            const float neighbour = input_value(b * kThreads + (t + 1) % kThreads);
            CHECK(out[b * kThreads + t] == neighbour + block_total(b) + 0.5f * float(t % 16));
        }
}
