// SPDX-License-Identifier: Apache-2.0
// Device printf (vprintf) and assert (__assertfail) of the corpus module printf_assert run on
// the simulator: the text of each printf, in a deterministic order, and the assertion message.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "tests/system/cli_runner.h"
#include "tests/system/sim_harness.h"

using namespace stacksim;

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STACKSIM_TEST_ASAN 1
#endif
#endif
#ifndef STACKSIM_TEST_ASAN
#define STACKSIM_TEST_ASAN 0
#endif

namespace {
std::string printf_ptx() {
    return test::read_file(std::string(STACKSIM_SOURCE_DIR) + "/tests/data/ptx_corpus/printf_assert.ptx");
}

/// Runs `k` with the process's stdout sent to a file; returns what was printed.
std::string captured_run(const test::HarnessKernel& k, const std::function<void(workloads::HostApi&)>& after = {}) {
    std::fflush(stdout);
    std::FILE* tmp = std::tmpfile();
    REQUIRE(tmp);
    const int saved = dup(fileno(stdout));
    dup2(fileno(tmp), fileno(stdout));
    try {
        test::run_kernel_then(k, after ? after : [](workloads::HostApi&) {});
    } catch (...) {
        std::fflush(stdout);
        dup2(saved, fileno(stdout));
        close(saved);
        throw;
    }
    std::fflush(stdout);
    dup2(saved, fileno(stdout));
    close(saved);
    std::rewind(tmp);
    std::string text;
    char buf[4096];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, tmp)) > 0;) text.append(buf, n);
    std::fclose(tmp);
    // SystemC's own report when the simulation stops ("\nInfo: ... stopped by user.\n").
    const std::string info = "\nInfo: /OSCI/SystemC: Simulation stopped by user.\n";
    for (size_t p; (p = text.find(info)) != std::string::npos;) text.erase(p, info.size());
    return text;
}
}  // namespace

TEST_CASE("printf: hello prints one line per thread with its block, thread and argument", "[ptx][printf]") {
    test::HarnessKernel k;
    k.ptx = printf_ptx();
    k.entry = "_Z5helloi";
    k.grid = {2, 1, 1};
    k.block = {40, 1, 1};
    k.setup = [](workloads::HostApi&) { return workloads::LaunchArgs().i32(7); };
    const std::string out = captured_run(k);
    std::vector<std::string> lines;
    std::istringstream in(out);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    REQUIRE(lines.size() == 80);
    std::vector<std::string> want;
    for (int b = 0; b < 2; ++b)
        for (int t = 0; t < 40; ++t) want.push_back("block " + std::to_string(b) + " thread " + std::to_string(t) + " tag 7");
    std::vector<std::string> sorted = lines;
    std::sort(sorted.begin(), sorted.end());
    std::sort(want.begin(), want.end());
    CHECK(sorted == want);
    // Within a warp the lanes print in lane order.
    const auto pos = [&](const std::string& s) { return std::find(lines.begin(), lines.end(), s) - lines.begin(); };
    CHECK(pos("block 0 thread 0 tag 7") < pos("block 0 thread 1 tag 7"));
    CHECK(pos("block 1 thread 30 tag 7") < pos("block 1 thread 31 tag 7"));
}

TEST_CASE("printf: %f %e %p %c %s and 64-bit conversions follow CUDA's argument layout", "[ptx][printf]") {
    constexpr int n = 200;
    std::vector<float> x(n);
    std::vector<double> d(n);
    char buf[256];
    for (int i = 0; i < n; ++i) {
        x[i] = 0.5f * float(i) - 3.25f;
        d[i] = 1.0 / (i + 1);
    }
    workloads::DevPtr dx = 0, dd = 0;
    test::HarnessKernel k;
    k.ptx = printf_ptx();
    k.entry = "_Z12print_valuesPKfPKdi";
    k.grid = {1, 1, 1};
    k.block = {256, 1, 1};
    k.setup = [&](workloads::HostApi& host) {
        dx = host.upload(x);
        dd = host.upload(d);
        return workloads::LaunchArgs().ptr(dx).ptr(dd).i32(n);
    };
    // Lines of different warps come in the order the warps ran (the simulated schedule).
    std::vector<std::string> out, want;
    std::istringstream in(captured_run(k));
    for (std::string l; std::getline(in, l);) out.push_back(l);
    for (int i = 0; i < n; i += 97) {
        std::snprintf(buf, sizeof buf, "x[%d]=%f d=%.3e p=0x%llx c=%c s=%s", i, double(x[i]), d[i],
                      static_cast<unsigned long long>(dx + 4ull * i), 'A' + (i % 26), "ok");
        want.push_back(buf);
    }
    std::sort(out.begin(), out.end());
    std::sort(want.begin(), want.end());
    CHECK(out == want);
}

TEST_CASE("printf: %lld %llu %x %o of 64-bit kernel arguments", "[ptx][printf]") {
    char buf[256];
    test::HarnessKernel l;
    l.ptx = printf_ptx();
    l.entry = "_Z10print_longxy";
    l.grid = {1, 1, 1};
    l.block = {32, 1, 1};
    l.setup = [](workloads::HostApi&) { return workloads::LaunchArgs().u64(uint64_t(-1234567890123ll)).u64(18446744073709551615ull); };
    std::snprintf(buf, sizeof buf, "%lld %llu %x %o\n", -1234567890123ll, 18446744073709551615ull,
                  unsigned(-1234567890123ll), unsigned(18446744073709551615ull));
    CHECK(captured_run(l) == buf);
}

TEST_CASE("assert: a failing assert stops the run with file, line, function and expression", "[ptx][assert]") {
#if defined(__SANITIZE_ADDRESS__) || STACKSIM_TEST_ASAN
    // Under ASan this throw from deep in a warp's execution gets a false stack-buffer-overflow
    // report: ASan has lost the stack's bounds after SystemC's thread switches ("ignoring
    // requested __asan_handle_no_return", google/sanitizers#189) and leaves the thrown-through
    // frames poisoned. The gcc build runs the test.
    std::printf("SKIPPED: a false AddressSanitizer report after SystemC thread switches (google/sanitizers#189)\n");
    std::exit(77);
#endif
    std::vector<int32_t> idx(64, 1);
    idx[37] = 99;  // out of range for m = 10
    workloads::DevPtr di = 0, dout = 0;
    test::HarnessKernel k;
    k.ptx = printf_ptx();
    k.entry = "_Z13checked_indexPKiPiii";
    k.grid = {1, 1, 1};
    k.block = {64, 1, 1};
    k.setup = [&](workloads::HostApi& host) {
        di = host.upload(idx);
        dout = host.malloc(64 * 4);
        return workloads::LaunchArgs().ptr(di).ptr(dout).i32(64).i32(10);
    };
    CHECK_THROWS_WITH(test::run_kernel_then(k, [](workloads::HostApi&) {}),
                      Catch::StartsWith("assertion failed: printf_assert.cu:15: void checked_index(const int *, int *, int, int): "
                                        "idx[i] >= 0 && idx[i] < m (block [0,0,0], thread [37,0,0])"));
}
