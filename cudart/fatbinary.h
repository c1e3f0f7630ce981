// SPDX-License-Identifier: Apache-2.0
// Reads nvcc's fatbinary container: the PTX and SASS entries of one compiled module.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace stacksim::cudart {

/// One entry of a fatbinary container.
struct FatbinEntry {
    enum class Kind : uint16_t { Ptx = 1, Elf = 2, Other = 0 };
    Kind kind = Kind::Other;
    uint32_t arch = 0;         ///< 75 for compute_75 / sm_75
    bool compressed = false;   ///< payload compressed (nvcc 13: zstd)
    uint64_t uncompressed_bytes = 0;
    const uint8_t* payload = nullptr;
    uint64_t payload_bytes = 0;  ///< as stored (compressed size when compressed)
};

/// The nvcc flags that put plain PTX into the fatbinary (printed where it holds none we can use).
inline constexpr const char* kPlainPtxFlags = "-cudart shared -gencode arch=compute_75,code=compute_75";

/// Parses the container at `data` (magic 0xBA55ED50; `max_bytes` bounds the read). Throws
/// sim::InputError when it is not a fatbinary or an entry runs past its end.
std::vector<FatbinEntry> parse_fatbinary(const uint8_t* data, uint64_t max_bytes);

/// The PTX text of the entry with the highest virtual architecture not above `max_arch`
/// (decompressed when nvcc compressed it). Throws sim::InputError with one line that names the
/// nvcc flags giving plain PTX when the container holds only SASS or only newer PTX.
std::string select_ptx(const std::vector<FatbinEntry>& entries, uint32_t max_arch, uint32_t* arch_out);

}  // namespace stacksim::cudart
