// SPDX-License-Identifier: Apache-2.0
// Local memory end to end: a corpus kernel whose per-thread array nvcc puts in local memory
// (insertion sort over a run-time index) runs on the simulator and verifies; the SM counts its
// local loads and stores.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "tests/system/cli_runner.h"
#include "tests/system/sim_harness.h"

using namespace stacksim;

TEST_CASE("local memory: local_sort8 (a local int[8]) sorts every thread's 8 values", "[ptx][local]") {
    const std::string ptx = test::read_file(std::string(STACKSIM_SOURCE_DIR) + "/tests/data/ptx_corpus/local_arrays.ptx");
    REQUIRE(ptx.find(".local .align 4 .b8 \t__local_depot0[32]") != std::string::npos);
    constexpr uint32_t threads = 2 * 96;
    std::vector<int32_t> in(threads * 8), out;
    uint32_t x = 12345;
    for (auto& v : in) {
        x = x * 1664525u + 1013904223u;
        v = static_cast<int32_t>(x >> 8) - (1 << 23);
    }
    workloads::DevPtr d_in = 0, d_out = 0;
    test::HarnessKernel k;
    k.ptx = ptx;
    k.entry = "_Z11local_sort8PKiPi";
    k.grid = {2, 1, 1};
    k.block = {96, 1, 1};
    k.setup = [&](workloads::HostApi& host) {
        d_in = host.upload(in);
        d_out = host.malloc(in.size() * 4);
        return workloads::LaunchArgs().ptr(d_in).ptr(d_out);
    };
    const auto after = [&](workloads::HostApi& host) { host.download(out, d_out, in.size()); };
    const test::HarnessRun r = test::run_kernel_then(k, after);
    std::vector<int32_t> want = in;
    for (uint32_t t = 0; t < threads; ++t) std::sort(want.begin() + t * 8, want.begin() + t * 8 + 8);
    CHECK(out == want);
    double loads = 0, stores = 0;
    for (const auto& [name, v] : r.stats) {
        if (name.size() >= 11 && name.compare(name.size() - 11, 11, "local_loads") == 0) loads += v;
        if (name.size() >= 12 && name.compare(name.size() - 12, 12, "local_stores") == 0) stores += v;
    }
    CHECK(loads > 0);
    CHECK(stores >= 2 * 3 * 8);  // at least the 8 initial stores of each of the 6 warps
}
