// SPDX-License-Identifier: Apache-2.0
// End-to-end functional tests: nvcc-compiled kernels run through the parser and executor
// (one thread at a time with barriers) and are checked against CPU references.
#include <cmath>
#include <cstring>
#include <numeric>

#include "tests/unit/ptx_test_util.h"

using namespace stacksim;

namespace {

core::Module load(const std::string& name) {
    return workloads::parse_ptx(test::read_source_file("tests/data/ptx/" + name + ".ptx"), name + ".ptx");
}

template <class T> void put(sim::SparseMemory& m, uint64_t addr, const std::vector<T>& v) {
    m.write(addr, v.data(), v.size() * sizeof(T));
}
template <class T> std::vector<T> get(const sim::SparseMemory& m, uint64_t addr, size_t n) {
    std::vector<T> v(n);
    m.read(addr, v.data(), n * sizeof(T));
    return v;
}

}  // namespace

TEST_CASE("exec: vec_add kernel with a grid-stride loop", "[exec]") {
    core::Module m = load("vec_add");
    const int n = 1000;
    std::vector<float> a(n), b(n);
    for (int i = 0; i < n; ++i) a[i] = 0.5f * float(i), b[i] = 3.0f - float(i) * 0.25f;
    sim::SparseMemory mem;
    const uint64_t A = 0x100000, B = 0x200000, C = 0x300000;
    put(mem, A, a);
    put(mem, B, b);
    std::vector<uint8_t> params;
    test::push_param(params, A);
    test::push_param(params, B);
    test::push_param(params, C);
    test::push_param(params, int32_t(n));
    test::run_grid(m.kernels[0], {3, 1, 1}, 128, params, mem);
    std::vector<float> c = get<float>(mem, C, n);
    for (int i = 0; i < n; ++i) REQUIRE(c[i] == a[i] + b[i]);
}

TEST_CASE("exec: shared-memory reduction with barriers and atomics", "[exec]") {
    core::Module m = load("reduce_shared");
    const int n = 700;
    std::vector<int32_t> in(n);
    for (int i = 0; i < n; ++i) in[i] = (i * 37) % 101 - 50;
    sim::SparseMemory mem;
    const uint64_t IN = 0x10000, OUT = 0x90000;
    put(mem, IN, in);
    std::vector<uint8_t> params;
    test::push_param(params, IN);
    test::push_param(params, OUT);
    test::push_param(params, int32_t(n));
    test::run_grid(*m.find("reduce_shared"), {3, 1, 1}, 256, params, mem);
    CHECK(mem.load<int32_t>(OUT) == std::accumulate(in.begin(), in.end(), 0));

    // dyn_shared: extern shared array placed after the static one.
    std::vector<float> x(64);
    for (int i = 0; i < 64; ++i) x[i] = float(i) * 1.25f;
    put(mem, IN, x);
    std::vector<uint8_t> p2;
    test::push_param(p2, IN);
    test::push_param(p2, OUT);
    test::run_grid(*m.find("dyn_shared"), {1, 1, 1}, 64, p2, mem, 64 * 4);
    std::vector<float> y = get<float>(mem, OUT, 64);
    for (int t = 0; t < 64; ++t) REQUIRE(y[t] == x[63 - t] + float(t % 3));
}

TEST_CASE("exec: atomics kernel", "[exec]") {
    core::Module m = load("atomics");
    sim::SparseMemory mem;
    const uint64_t GI = 0x1000, GU = 0x2000, GF = 0x3000, G64 = 0x4000;
    put(mem, GI, std::vector<int32_t>{1000, -1000, 0, 5});
    put(mem, GU, std::vector<uint32_t>{0, 0, 0xFFFFFFFFu, 0, 0});
    std::vector<uint8_t> params;
    for (uint64_t p : {GI, GU, GF, G64}) test::push_param(params, p);
    const unsigned threads = 64;
    test::run_grid(m.kernels[0], {1, 1, 1}, threads, params, mem);
    std::vector<int32_t> gi = get<int32_t>(mem, GI, 4);
    CHECK(gi[0] == -10);
    CHECK(gi[1] == 63);
    CHECK(gi[2] == 63);  // exch in thread order: the last thread wins
    CHECK(gi[3] == 64);  // cas(t -> t+1) chains from thread 5 to 63 in thread order
    CHECK(mem.load<float>(GF) == 96.0f);
    std::vector<uint32_t> gu = get<uint32_t>(mem, GU, 40);
    CHECK(gu[0] == 64);
    CHECK(gu[1] == 37);  // dec from 0 wraps to 100, then 63 decrements
    CHECK(gu[2] == 0);           // every bit cleared
    CHECK(gu[3] == 0xFFFFFFFFu); // every bit set
    uint32_t x = 0;
    for (unsigned t = 0; t < threads; ++t) x ^= t;
    CHECK(gu[4] == x);
    CHECK(mem.load<uint64_t>(G64) == uint64_t(threads) * (threads - 1) / 2);
    for (unsigned i = 0; i < 32; ++i) CHECK(gu[8 + i] == 2);  // hist: 64 threads over 32 bins
}

TEST_CASE("exec: divergent kernel matches the CPU reference", "[exec]") {
    core::Module m = load("divergent");
    const int n = 96;
    std::vector<int32_t> in(n);
    for (int i = 0; i < n; ++i) in[i] = (i % 3 == 0) ? -(i * 7919 % 1000) : (i * 104729 % 100000) - (i % 5 == 0 ? 0 : 7);
    in[1] = INT32_MIN;
    in[2] = INT32_MAX;
    sim::SparseMemory mem;
    const uint64_t IN = 0x1000, OUT = 0x8000, WIDE = 0x10000;
    put(mem, IN, in);
    std::vector<uint8_t> params;
    for (uint64_t p : {IN, OUT, WIDE}) test::push_param(params, p);
    test::run_grid(m.kernels[0], {1, 1, 1}, n, params, mem);
    std::vector<int32_t> out = get<int32_t>(mem, OUT, n);
    std::vector<int64_t> wide = get<int64_t>(mem, WIDE, n);
    for (int t = 0; t < n; ++t) {
        int v = in[t], acc = 0;
        if (v > 0) {
            if (v & 1) acc = int(uint32_t(v) * 3u + 1u);
            else acc = v / 2;
        } else {
            for (int k = 0; k < (t & 7); ++k) acc += (v >> k) ^ k;
        }
        uint32_t u = uint32_t(v), rev = 0;
        for (int b = 0; b < 32; ++b) rev |= ((u >> b) & 1u) << (31 - b);
        int expect = int(uint32_t(acc % 7) + uint32_t(__builtin_popcount(u)) + uint32_t(u ? __builtin_clz(u) : 32) + rev);
        INFO("t=" << t << " v=" << v);
        REQUIRE(out[t] == expect);
        int64_t w = int64_t(v) * int64_t(t) + int32_t((int64_t(v) * t) >> 32) + int64_t(u / 3u);
        REQUIRE(wide[t] == w);
    }
}

TEST_CASE("exec: float_math kernel", "[exec]") {
    core::Module m = load("float_math");
    const int n = 40;
    std::vector<float> x(n);
    for (int i = 0; i < n; ++i) x[i] = (float(i) - 20.0f) * 0.37f;
    sim::SparseMemory mem;
    const uint64_t X = 0x1000, Y = 0x2000, D = 0x3000, I = 0x4000;
    put(mem, X, x);
    std::vector<uint8_t> params;
    for (uint64_t p : {X, Y, D, I}) test::push_param(params, p);
    test::push_param(params, int32_t(n - 2));
    test::run_grid(m.kernels[0], {1, 1, 1}, 64, params, mem);
    std::vector<float> y = get<float>(mem, Y, n);
    std::vector<double> d = get<double>(mem, D, n);
    for (int i = 0; i < n - 2; ++i) {
        float v = x[i];
        double r = std::sqrt(std::fabs(double(v))) + 1.0 / std::sqrt(double(v) * v + 1.0) + std::exp(double(v)) +
                   std::log(std::fabs(double(v)) + 1.0) + std::sin(double(v)) * std::cos(double(v)) +
                   1.0 / (double(v) + 3.0) + std::min(double(v), 2.0) + std::max(double(v), -2.0);
        INFO("i=" << i << " v=" << v);
        CHECK(std::fabs(y[i] - r) <= 1e-4 * std::max(1.0, std::fabs(r)));
        CHECK(d[i] == double(v) * double(v) / 3.0 + double(i));
    }
    CHECK(d[n - 1] == 0.0);  // threads >= n exit early
}
