// SPDX-License-Identifier: Apache-2.0
// BDI line compression, the LCP page layout and the metadata cache (plain C++).
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <vector>

#include "memory/bdi_compressor.h"
#include "memory/lcp_page.h"
#include "memory/metadata_cache.h"
#include "memory/page_compression.h"

using namespace stacksim::memory;

namespace {

std::vector<uint8_t> line_of_u32(uint32_t base, int32_t step) {
    std::vector<uint8_t> l(64);
    for (uint32_t i = 0; i < 16; ++i) {
        const uint32_t v = base + static_cast<uint32_t>(step * static_cast<int32_t>(i));
        std::memcpy(l.data() + 4 * i, &v, 4);
    }
    return l;
}

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<uint8_t> b(n);
    for (auto& x : b) x = static_cast<uint8_t>(rng());
    return b;
}

}  // namespace

TEST_CASE("bdi: zero, repeated and small-delta lines take their encodings", "[compression]") {
    std::vector<uint8_t> zeros(64, 0);
    CHECK(BdiCompressor::compress(zeros.data()) == BdiEncoding::Zeros);
    std::vector<uint8_t> rep(64);
    const uint64_t v = 0x0123456789abcdefull;
    for (int i = 0; i < 8; ++i) std::memcpy(rep.data() + 8 * i, &v, 8);
    CHECK(BdiCompressor::compress(rep.data()) == BdiEncoding::Repeated);
    // Pointers/indices a few apart: 4-byte values within a byte of a large base.
    CHECK(BdiCompressor::compress(line_of_u32(0x40000000u, 3).data()) == BdiEncoding::Base4Delta1);
    CHECK(BdiCompressor::compress(line_of_u32(0x40000000u, 1000).data()) == BdiEncoding::Base4Delta2);
    CHECK(BdiCompressor::size(BdiEncoding::Base4Delta1) == 20);
    CHECK(BdiCompressor::size(BdiEncoding::Base8Delta1) == 16);
    // Small values mixed with values near one base: the implicit zero base takes the small ones.
    std::vector<uint8_t> mixed = line_of_u32(0x7f000000u, 1);
    const uint32_t small = 5;
    std::memcpy(mixed.data() + 8, &small, 4);
    CHECK(BdiCompressor::compress(mixed.data()) == BdiEncoding::Base4Delta1);
}

TEST_CASE("bdi: a line of random bytes is not compressed", "[compression]") {
    const auto r = random_bytes(64, 7);
    CHECK(BdiCompressor::compress(r.data()) == BdiEncoding::Uncompressed);
    CHECK_FALSE(BdiCompressor::fits(r.data(), 8, 4));
}

TEST_CASE("bdi: deltas wrap as the hardware's fixed-width subtraction", "[compression]") {
    // 0xffffffff and 0x00000001 differ by 2 modulo 2^32 but neither is a small immediate
    // when read unsigned; as signed 4-byte values they are -1 and 1: immediates.
    std::vector<uint8_t> l(64, 0);
    for (int i = 0; i < 16; ++i) {
        const uint32_t v = i % 2 ? 0xffffffffu : 1u;
        std::memcpy(l.data() + 4 * i, &v, 4);
    }
    CHECK(BdiCompressor::fits(l.data(), 4, 1));
}

TEST_CASE("lcp: a page of small deltas compresses and a page of random data does not", "[compression]") {
    const uint64_t page = 65536;
    std::vector<uint8_t> deltas(page);
    for (uint64_t i = 0; i < page / 4; ++i) {
        const uint32_t v = 0x3f800000u + static_cast<uint32_t>(i % 16);  // floats near 1.0
        std::memcpy(deltas.data() + 4 * i, &v, 4);
    }
    const LcpLayout d = LcpPage::layout(deltas.data(), page);
    CHECK(d.compressed);
    CHECK(d.target_line_bytes == 20);
    CHECK(d.exceptions == 0);
    CHECK(d.metadata_bytes == 1024);  // 64 B per 64 lines
    CHECK(d.compressed_bytes == 3 * page / 8);  // 1024 x 20 B + 1 KB, rounded up to 8 KB chunks
    CHECK(d.ratio() == Approx(8.0 / 3.0));

    const auto r = random_bytes(page, 11);
    const LcpLayout u = LcpPage::layout(r.data(), page);
    CHECK_FALSE(u.compressed);
    CHECK(u.compressed_bytes == page);
    CHECK(u.ratio() == 1.0);
}

TEST_CASE("lcp: lines that do not fit the target slot become exceptions", "[compression]") {
    const uint64_t page = 4096;
    std::vector<uint8_t> data(page, 0);
    const auto r = random_bytes(64, 3);
    std::memcpy(data.data() + 64 * 5, r.data(), 64);  // one random line among zero lines
    const LcpLayout l = LcpPage::layout(data.data(), page);
    CHECK(l.compressed);
    CHECK(l.target_line_bytes == 1);
    CHECK(l.exceptions == 1);
    CHECK(l.compressed_bytes == 512);  // 64 B + 64 B + 64 B metadata, one 512 B chunk
}

TEST_CASE("lcp: a forced ratio sets the page size whatever the data", "[compression]") {
    CHECK(LcpPage::forced(65536, 2.0).compressed_bytes == 32768);
    CHECK(LcpPage::forced(65536, 4.0).compressed);
    CHECK_FALSE(LcpPage::forced(65536, 1.0).compressed);
}

TEST_CASE("metadata cache: LRU over pages, invalidated when a page leaves", "[compression]") {
    MetadataCache c(2);
    CHECK_FALSE(c.access(1));
    CHECK_FALSE(c.access(2));
    CHECK(c.access(1));
    CHECK_FALSE(c.access(3));  // evicts 2, the least recent
    CHECK(c.access(1));
    CHECK_FALSE(c.access(2));
    c.invalidate(1);
    CHECK_FALSE(c.access(1));
}

TEST_CASE("page compression: misses pay the metadata latency, every access the decompression", "[compression]") {
    stacksim::sim::StatRegistry stats;
    CompressionConfig cfg;
    cfg.enabled = true;
    cfg.metadata_cache_entries = 1;
    cfg.metadata_miss_latency = 50;
    cfg.decompression_latency = 3;
    cfg.forced_ratio = 2.0;
    PageCompression pc(cfg, 4096, 2, "c", stats);
    pc.arrive(10, pc.measure(10));
    pc.arrive(11, pc.measure(11));
    CHECK(pc.resident_bytes() == 4096);
    CHECK(pc.access_latency(0, 10 * 4096) == 53);
    CHECK(pc.access_latency(0, 10 * 4096 + 64) == 3);
    CHECK(pc.access_latency(1, 10 * 4096) == 53);  // each controller has its own cache
    CHECK(pc.access_latency(0, 11 * 4096) == 53);
    CHECK(pc.access_latency(0, 10 * 4096) == 53);  // one entry: 11 displaced 10
    CHECK(pc.access_latency(0, 12 * 4096) == 0);   // not resident: not compressed
    pc.leave(10);
    CHECK(pc.resident_bytes() == 2048);
    CHECK(pc.access_latency(0, 10 * 4096) == 0);
    CHECK(pc.metadata_misses() == 4);
    CHECK(pc.metadata_hits() == 1);
    CHECK(PageCompression::pte_overhead_bytes(8) == 9);
}

TEST_CASE("page compression: measures the page's bytes in functional memory", "[compression]") {
    stacksim::sim::StatRegistry stats;
    CompressionConfig cfg;
    cfg.enabled = true;
    PageCompression pc(cfg, 4096, 1, "c", stats);
    stacksim::sim::SparseMemory mem;
    pc.set_data(&mem);
    CHECK(pc.measure(3).compressed_bytes == 512);  // untouched memory reads as zeros
    const auto r = random_bytes(4096, 5);
    mem.write(3 * 4096, r.data(), r.size());
    CHECK_FALSE(pc.measure(3).compressed);
    CHECK(pc.measure(4).compressed);
}
