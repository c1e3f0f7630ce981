// SPDX-License-Identifier: Apache-2.0
// Linearly Compressed Page (LCP) layout of one page of BDI-compressed lines.
#include "memory/lcp_page.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "memory/bdi_compressor.h"

namespace stacksim::memory {

namespace {
constexpr uint32_t kEncodings = static_cast<uint32_t>(BdiEncoding::Uncompressed) + 1;

uint64_t round_up(uint64_t v, uint64_t to) { return (v + to - 1) / to * to; }
}  // namespace

LcpLayout LcpPage::layout(const uint8_t* data, uint64_t page_bytes) {
    const uint32_t line = BdiCompressor::kLineBytes;
    LcpLayout out;
    out.page_bytes = page_bytes;
    out.lines = static_cast<uint32_t>(page_bytes / line);
    out.compressed_bytes = page_bytes;
    // Lines per compressed size: a slot of t bytes holds every line whose size is <= t.
    std::array<uint32_t, kEncodings> count{};
    for (uint32_t i = 0; i < out.lines; ++i)
        ++count[static_cast<uint32_t>(BdiCompressor::compress(data + uint64_t{i} * line))];
    out.metadata_bytes = round_up(out.lines, 64) / 64 * kMetadataPer64Lines;
    const uint64_t chunk = page_bytes / kChunks;
    for (uint32_t t = 0; t + 1 < kEncodings; ++t) {
        const uint32_t slot = BdiCompressor::size(static_cast<BdiEncoding>(t));
        uint32_t fitting = 0;
        for (uint32_t e = 0; e < kEncodings; ++e)
            if (BdiCompressor::size(static_cast<BdiEncoding>(e)) <= slot) fitting += count[e];
        const uint32_t exceptions = out.lines - fitting;
        const uint64_t bytes =
            round_up(uint64_t{out.lines} * slot + uint64_t{exceptions} * line + out.metadata_bytes, chunk);
        if (bytes < out.compressed_bytes) {
            out.compressed_bytes = bytes;
            out.target_line_bytes = slot;
            out.exceptions = exceptions;
            out.compressed = true;
        }
    }
    if (!out.compressed) out.metadata_bytes = 0;
    return out;
}

LcpLayout LcpPage::forced(uint64_t page_bytes, double ratio) {
    LcpLayout out;
    out.page_bytes = page_bytes;
    out.lines = static_cast<uint32_t>(page_bytes / BdiCompressor::kLineBytes);
    const double r = std::max(ratio, 1.0);
    out.compressed_bytes = std::max<uint64_t>(static_cast<uint64_t>(std::ceil(static_cast<double>(page_bytes) / r)), 1);
    out.compressed = r > 1.0;
    out.target_line_bytes = static_cast<uint32_t>(std::ceil(BdiCompressor::kLineBytes / r));
    return out;
}

}  // namespace stacksim::memory
