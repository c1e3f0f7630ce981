// SPDX-License-Identifier: Apache-2.0
// Linearly Compressed Page (LCP) layout of one page of BDI-compressed lines (plain C++).
#pragma once
#include <cstdint>

namespace stacksim::memory {

/// How a page is stored under LCP (Pekhimenko et al., MICRO 2013): every line gets the same
/// compressed slot (`target_line_bytes`), so a line's address inside the page stays linear;
/// lines that do not fit their slot are exceptions, stored uncompressed in the exception
/// region; a metadata region holds per line an exception bit and the line's exception index.
struct LcpLayout {
    uint64_t page_bytes = 0;         ///< uncompressed page size, bytes
    uint32_t lines = 0;              ///< 64-byte lines in the page
    uint32_t target_line_bytes = 64; ///< compressed slot per line, bytes (64: not compressed)
    uint32_t exceptions = 0;         ///< lines stored uncompressed in the exception region
    uint64_t metadata_bytes = 0;     ///< metadata region, bytes
    uint64_t compressed_bytes = 0;   ///< GPU memory the page occupies, bytes (<= page_bytes)
    bool compressed = false;         ///< false: stored as an ordinary page
    /// page_bytes / compressed_bytes (1 for an uncompressed page).
    double ratio() const { return compressed_bytes ? static_cast<double>(page_bytes) / static_cast<double>(compressed_bytes) : 1.0; }
};

/// Chooses the LCP layout of a page from its real bytes.
class LcpPage {
public:
    /// Physical allocations are multiples of page_bytes / kChunks (LCP's 512 B chunks of a 4 KB page).
    static constexpr uint32_t kChunks = 8;
    /// Metadata per 64 lines, bytes (LCP's 64 B per 4 KB page: exception bits and indices).
    static constexpr uint32_t kMetadataPer64Lines = 64;

    /// The layout of the `page_bytes` bytes at `data` (a multiple of 4096): the target slot
    /// size (one of the BDI sizes) that minimises the page's size, rounded up to a chunk; a
    /// page that would not shrink stays uncompressed.
    static LcpLayout layout(const uint8_t* data, uint64_t page_bytes);
    /// The layout of a page whose every line compresses to `ratio` (forced ratio, >= 1).
    static LcpLayout forced(uint64_t page_bytes, double ratio);
};

}  // namespace stacksim::memory
