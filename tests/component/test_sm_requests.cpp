// SPDX-License-Identifier: Apache-2.0
// SM bench, memory requests: coalescing into lines and sectors, commands, send rate.
#include <catch2/catch.hpp>

#include <map>

#include "tests/component/sm_bench.h"

using namespace stacksim;
using test::RecordedRequest;
using test::SmBench;

namespace {

/// b[tid * stride] = a[tid * stride] + 1 (floats; p0 = a, p1 = b, p2 = stride in bytes).
const char* const kStridedCopy = R"(
ld.param.u64 %rd1, [p0];
ld.param.u64 %rd2, [p1];
ld.param.u32 %r1, [p2];
mov.u32 %r2, %tid.x;
mul.wide.u32 %rd3, %r2, %r1;
add.s64 %rd4, %rd1, %rd3;
ld.global.f32 %f1, [%rd4];
add.f32 %f2, %f1, 0f3F800000;
add.s64 %rd5, %rd2, %rd3;
st.global.f32 [%rd5], %f2;
ret;)";

/// old = atomicAdd(&a[tid], 1); b[tid] = old (p0 = a, p1 = b).
const char* const kAtomicAdd = R"(
ld.param.u64 %rd1, [p0];
ld.param.u64 %rd2, [p1];
mov.u32 %r2, %tid.x;
mul.wide.u32 %rd3, %r2, 4;
add.s64 %rd4, %rd1, %rd3;
atom.global.add.u32 %r3, [%rd4], 1;
add.s64 %rd5, %rd2, %rd3;
st.global.u32 [%rd5], %r3;
ret;)";

constexpr uint64_t kA = 0x10000;  // line aligned
constexpr uint64_t kB = 0x40000;

/// Fills a[i * stride] = i for `threads` threads.
void fill_input(SmBench& b, uint32_t threads, uint32_t stride, uint64_t base = kA) {
    for (uint32_t i = 0; i < threads; ++i) b.global.store<float>(base + uint64_t{i} * stride, static_cast<float>(i));
}

/// The requests of `access` that arrived during `run`.
std::vector<RecordedRequest> during(const SmBench& b, const SmBench::Run& run, sim::MemAccess access) {
    std::vector<RecordedRequest> out;
    for (const RecordedRequest& r : b.mem.requests(access))
        if (r.arrival_cycle >= run.start_cycle && r.arrival_cycle <= run.end_cycle) out.push_back(r);
    return out;
}

/// Checks that `reqs` are the lines base, base + 128, ... each with `mask` and its bytes.
void check_lines(const std::vector<RecordedRequest>& reqs, uint64_t base, size_t lines, uint32_t mask) {
    REQUIRE(reqs.size() == lines);
    for (size_t i = 0; i < lines; ++i) {
        INFO("line " << i);
        CHECK(reqs[i].addr == base + 128 * i);
        CHECK(reqs[i].sector_mask == mask);
        CHECK(reqs[i].bytes == 32u * static_cast<uint32_t>(__builtin_popcount(mask)));
    }
}

}  // namespace

TEST_CASE("sm bench: a fully coalesced warp load of 32 floats is one 128-byte read of all four sectors",
          "[sm_bench][coalescing]") {
    SmBench b;
    fill_input(b, 32, 4);
    SmBench::Run& run = b.start(b.kernel(kStridedCopy), 32, kA, kB, 4);
    b.run();
    REQUIRE(run.done);

    const auto& reqs = b.mem.requests();
    REQUIRE(reqs.size() == 2);
    const RecordedRequest& ld = reqs[0];
    CHECK(ld.addr == kA);
    CHECK(ld.bytes == 128);
    CHECK(ld.sector_mask == 0xF);
    CHECK(ld.command == tlm::TLM_READ_COMMAND);
    CHECK(ld.access == sim::MemAccess::Read);
    CHECK(ld.source == SmBench::kSmId);
    CHECK(ld.issue_cycle <= ld.arrival_cycle);
    const RecordedRequest& st = reqs[1];
    CHECK(st.addr == kB);
    CHECK(st.bytes == 128);
    CHECK(st.sector_mask == 0xF);
    CHECK(st.command == tlm::TLM_WRITE_COMMAND);
    CHECK(st.access == sim::MemAccess::Write);
    CHECK(st.warp == ld.warp);
    // The store depends on the load's value: it leaves only after the load was answered.
    CHECK(st.arrival_cycle > ld.response_cycle);

    CHECK(b.stat("memory_requests") == 2);
    CHECK(b.mem.violations().empty());
    CHECK(b.mem.outstanding() == 0);
    for (uint32_t i = 0; i < 32; ++i) CHECK(b.global.load<float>(kB + 4 * i) == static_cast<float>(i) + 1.0f);
}

TEST_CASE("sm bench: strided warp loads make one request per line with the touched sectors",
          "[sm_bench][coalescing]") {
    SmBench b;
    const core::Kernel& k = b.kernel(kStridedCopy);

    // 64-byte stride: lanes 2i and 2i+1 share line i, at sectors 0 and 2.
    fill_input(b, 32, 64);
    SmBench::Run& s64 = b.start(k, 32, kA, kB, 64);
    b.run();
    REQUIRE(s64.done);
    check_lines(during(b, s64, sim::MemAccess::Read), kA, 16, 0x5);
    check_lines(during(b, s64, sim::MemAccess::Write), kB, 16, 0x5);

    // 128-byte stride: one line per lane, sector 0 only.
    const uint64_t a2 = 0x100000, b2 = 0x200000;
    fill_input(b, 32, 128, a2);
    SmBench::Run& s128 = b.start(k, 32, a2, b2, 128);
    b.run();
    REQUIRE(s128.done);
    check_lines(during(b, s128, sim::MemAccess::Read), a2, 32, 0x1);
    check_lines(during(b, s128, sim::MemAccess::Write), b2, 32, 0x1);

    // 36-byte stride: a lane's 4 bytes sit in sector (36 i mod 128) / 32 of line 36 i / 128.
    const uint64_t a3 = 0x300000, b3 = 0x400000;
    fill_input(b, 32, 36, a3);
    SmBench::Run& s36 = b.start(k, 32, a3, b3, 36);
    b.run();
    REQUIRE(s36.done);
    std::map<uint64_t, uint32_t> expected;  // line -> sectors, computed lane by lane
    for (uint64_t lane = 0; lane < 32; ++lane) expected[a3 + 36 * lane / 128 * 128] |= 1u << (36 * lane % 128 / 32);
    auto reads = during(b, s36, sim::MemAccess::Read);
    REQUIRE(reads.size() == expected.size());
    size_t i = 0;
    for (auto [line, sectors] : expected) {
        CHECK(reads[i].addr == line);
        CHECK(reads[i].sector_mask == sectors);
        ++i;
    }

    CHECK(b.mem.violations().empty());
    for (uint32_t lane = 0; lane < 32; ++lane) {
        CHECK(b.global.load<float>(kB + 64 * lane) == static_cast<float>(lane) + 1.0f);
        CHECK(b.global.load<float>(b2 + 128 * lane) == static_cast<float>(lane) + 1.0f);
        CHECK(b.global.load<float>(b3 + 36 * lane) == static_cast<float>(lane) + 1.0f);
    }
}

TEST_CASE("sm bench: a warp access that starts mid-line splits over two lines, a partial warp touches one sector",
          "[sm_bench][coalescing]") {
    SmBench b;
    const core::Kernel& k = b.kernel(kStridedCopy);

    // 32 floats from 16 bytes into a line: bytes 16..127 of the first line, 0..15 of the next.
    fill_input(b, 32, 4, kA + 16);
    SmBench::Run& shifted = b.start(k, 32, kA + 16, kB + 16, 4);
    b.run();
    REQUIRE(shifted.done);
    auto reads = during(b, shifted, sim::MemAccess::Read);
    REQUIRE(reads.size() == 2);
    CHECK(reads[0].addr == kA);
    CHECK(reads[0].sector_mask == 0xF);
    CHECK(reads[0].bytes == 128);
    CHECK(reads[1].addr == kA + 128);
    CHECK(reads[1].sector_mask == 0x1);
    CHECK(reads[1].bytes == 32);

    // Eight threads read 32 contiguous bytes: one sector.
    SmBench::Run& partial = b.start(k, 8, kA + 0x1000, kB + 0x1000, 4);
    b.run();
    REQUIRE(partial.done);
    reads = during(b, partial, sim::MemAccess::Read);
    REQUIRE(reads.size() == 1);
    CHECK(reads[0].addr == kA + 0x1000);
    CHECK(reads[0].sector_mask == 0x1);
    CHECK(reads[0].bytes == 32);
    CHECK(b.mem.violations().empty());
}

TEST_CASE("sm bench: loads are read commands, stores and atomics are write commands with their access kind",
          "[sm_bench][commands]") {
    SmBench b;
    for (uint32_t i = 0; i < 32; ++i) b.global.store<uint32_t>(kA + 4 * i, 10 * i);
    SmBench::Run& run = b.start(b.kernel(kAtomicAdd), 32, kA, kB);
    b.run();
    REQUIRE(run.done);

    const auto& reqs = b.mem.requests();
    REQUIRE(reqs.size() == 2);
    CHECK(reqs[0].access == sim::MemAccess::Atomic);
    CHECK(reqs[0].command == tlm::TLM_WRITE_COMMAND);
    CHECK(reqs[0].addr == kA);
    CHECK(reqs[0].sector_mask == 0xF);
    CHECK(reqs[1].access == sim::MemAccess::Write);
    CHECK(reqs[1].command == tlm::TLM_WRITE_COMMAND);
    CHECK(reqs[1].addr == kB);
    // The atomic returns a value: the store waits for its response.
    CHECK(reqs[1].arrival_cycle > reqs[0].response_cycle);
    for (uint32_t i = 0; i < 32; ++i) {
        CHECK(b.global.load<uint32_t>(kA + 4 * i) == 10 * i + 1);
        CHECK(b.global.load<uint32_t>(kB + 4 * i) == 10 * i);
    }
}

TEST_CASE("sm bench: the SM sends requests_per_cycle requests per cycle", "[sm_bench][send]") {
    auto per_cycle = [](const std::vector<RecordedRequest>& reqs) {
        std::map<uint64_t, uint32_t> n;
        for (const RecordedRequest& r : reqs) ++n[r.arrival_cycle];
        return n;
    };
    core::SmConfig cfg;
    cfg.requests_per_cycle = 4;
    SmBench b(cfg);
    SmBench::Run& run = b.start(b.kernel(kStridedCopy), 32, kA, kB, 128);
    b.run();
    REQUIRE(run.done);
    auto reads = b.mem.requests(sim::MemAccess::Read);
    REQUIRE(reads.size() == 32);
    auto n = per_cycle(reads);
    // 32 lines queued at once by one instruction leave four per cycle on eight consecutive cycles.
    REQUIRE(n.size() == 8);
    CHECK(n.rbegin()->first - n.begin()->first == 7);
    for (auto [cycle, count] : n) CHECK(count == 4);
}

TEST_CASE("sm bench: with requests_per_cycle = 1 a 32-line load leaves one line per cycle", "[sm_bench][send]") {
    SmBench b;
    SmBench::Run& run = b.start(b.kernel(kStridedCopy), 32, kA, kB, 128);
    b.run();
    REQUIRE(run.done);
    auto reads = b.mem.requests(sim::MemAccess::Read);
    REQUIRE(reads.size() == 32);
    for (size_t i = 1; i < reads.size(); ++i) CHECK(reads[i].arrival_cycle == reads[i - 1].arrival_cycle + 1);
}
