// SPDX-License-Identifier: Apache-2.0
// Reads nvcc's fatbinary container: the PTX and SASS entries of one compiled module.
#include "cudart/fatbinary.h"

#include <fmt/format.h>
#include <zstd.h>

#include <cstring>

#include "sim/error.h"

namespace stacksim::cudart {

namespace {

constexpr uint32_t kMagic = 0xBA55ED50u;
constexpr uint64_t kCompressedFlag = 0x8000;  // entry flags: the payload is compressed
constexpr uint32_t kEntryBaseBytes = 64;

template <typename T> T load(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

}  // namespace

// Layout (little endian), from public descriptions of the format:
//   header: u32 magic, u16 version, u16 header_bytes, u64 bytes of the entries after the header
//   entry:  u16 kind, u16 ?, u32 entry_header_bytes, u64 payload_bytes (padded), u32 stored_bytes,
//           u32 ?, u16 minor, u16 major, u32 arch, u32 name_offset, u32 name_bytes, u64 flags,
//           u64 ?, u64 uncompressed_bytes, then more header up to entry_header_bytes, then payload.
std::vector<FatbinEntry> parse_fatbinary(const uint8_t* data, uint64_t max_bytes) {
    if (max_bytes < 16 || load<uint32_t>(data) != kMagic)
        throw sim::InputError("the program's device code is not a fatbinary (no 0xBA55ED50 header)");
    const uint16_t header_bytes = load<uint16_t>(data + 6);
    const uint64_t body_bytes = load<uint64_t>(data + 8);
    if (header_bytes < 16 || body_bytes > max_bytes - header_bytes)
        throw sim::InputError("the program's fatbinary header gives a size past its end");
    std::vector<FatbinEntry> out;
    uint64_t pos = header_bytes;
    const uint64_t end = header_bytes + body_bytes;
    while (pos + kEntryBaseBytes <= end) {
        const uint8_t* e = data + pos;
        const uint32_t entry_bytes = load<uint32_t>(e + 4);
        const uint64_t padded = load<uint64_t>(e + 8);
        if (entry_bytes < kEntryBaseBytes || padded > end - pos - entry_bytes)
            throw sim::InputError(fmt::format("the program's fatbinary has a bad entry at byte {}", pos));
        FatbinEntry f;
        const uint16_t kind = load<uint16_t>(e);
        f.kind = kind == 1 ? FatbinEntry::Kind::Ptx : kind == 2 ? FatbinEntry::Kind::Elf : FatbinEntry::Kind::Other;
        f.arch = load<uint32_t>(e + 28);
        const uint64_t flags = load<uint64_t>(e + 40);
        f.compressed = (flags & kCompressedFlag) != 0;
        const uint32_t stored = load<uint32_t>(e + 16);
        f.uncompressed_bytes = load<uint64_t>(e + 56);
        f.payload = e + entry_bytes;
        f.payload_bytes = f.compressed && stored && stored <= padded ? stored : padded;
        out.push_back(f);
        pos += entry_bytes + padded;
    }
    return out;
}

std::string select_ptx(const std::vector<FatbinEntry>& entries, uint32_t max_arch, uint32_t* arch_out) {
    const FatbinEntry* best = nullptr;
    uint32_t newest = 0;
    for (const auto& e : entries) {
        if (e.kind != FatbinEntry::Kind::Ptx) continue;
        newest = std::max(newest, e.arch);
        if (e.arch <= max_arch && (!best || e.arch > best->arch)) best = &e;
    }
    if (!best) {
        if (newest)
            throw sim::InputError(fmt::format("the program holds PTX for compute_{} only; stacksim runs PTX up to "
                                              "compute_{}: rebuild with nvcc {}",
                                              newest, max_arch, kPlainPtxFlags));
        throw sim::InputError(fmt::format(
            "the program holds no PTX (only SASS, which stacksim cannot run): rebuild with nvcc {} (and without "
            "-rdc=true, whose device link keeps only SASS)",
            kPlainPtxFlags));
    }
    if (arch_out) *arch_out = best->arch;
    std::string text;
    if (!best->compressed) {
        text.assign(reinterpret_cast<const char*>(best->payload), best->payload_bytes);
    } else {
        const unsigned long long size = ZSTD_getFrameContentSize(best->payload, best->payload_bytes);
        const uint64_t want = size == ZSTD_CONTENTSIZE_UNKNOWN || size == ZSTD_CONTENTSIZE_ERROR
                                  ? best->uncompressed_bytes
                                  : size;
        if (best->payload_bytes < 4 || load<uint32_t>(best->payload) != 0xFD2FB528u || want == 0 ||
            want > (uint64_t{1} << 31))
            throw sim::InputError(fmt::format("the program's PTX is compressed in a form stacksim cannot read: "
                                              "rebuild with nvcc -no-compress {}",
                                              kPlainPtxFlags));
        text.resize(want);
        const size_t n = ZSTD_decompress(text.data(), text.size(), best->payload, best->payload_bytes);
        if (ZSTD_isError(n))
            throw sim::InputError(fmt::format("the program's compressed PTX does not decompress ({}): rebuild with "
                                              "nvcc -no-compress {}",
                                              ZSTD_getErrorName(n), kPlainPtxFlags));
        text.resize(n);
    }
    // The payload is padded with NULs.
    const size_t nul = text.find('\0');
    if (nul != std::string::npos) text.resize(nul);
    return text;
}

}  // namespace stacksim::cudart
