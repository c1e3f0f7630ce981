// SPDX-License-Identifier: Apache-2.0
// Texture objects: the descriptor the host creates (cudaCreateTextureObject) and the sampler
// the tex instruction uses (addressing, point and linear filtering), as plain C++.
#pragma once
#include <array>
#include <cstdint>
#include <unordered_map>

#include "sim/sparse_memory.h"

namespace stacksim::core {

/// Out-of-range coordinate handling (CUDA's cudaTextureAddressMode, same order).
enum class TexAddress : uint8_t { Wrap, Clamp, Mirror, Border };
/// cudaTextureFilterMode.
enum class TexFilter : uint8_t { Point, Linear };
/// Channel format of one texel component (cudaChannelFormatDesc).
enum class TexChannel : uint8_t { Float32, Signed32, Unsigned32, Signed16, Unsigned16, Signed8, Unsigned8 };
/// What the texture reads (cudaResourceType). CUDA arrays are not modelled yet.
enum class TexResource : uint8_t {
    Linear,   ///< 1-D linear memory: tex1Dfetch with integer coordinates, no filtering
    Pitch2D,  ///< 2-D pitched linear memory: tex2D with float coordinates
};

/// A texture object: the resource, its texel format and the sampler state.
struct TextureDesc {
    TexResource resource = TexResource::Linear;
    uint64_t base = 0;                   ///< device address of texel (0, 0)
    TexChannel channel = TexChannel::Float32;
    uint8_t channels = 1;                ///< components per texel: 1, 2 or 4
    uint32_t width = 0;                  ///< texels per row (Linear: texels in all)
    uint32_t height = 1;                 ///< rows (Pitch2D)
    uint64_t pitch = 0;                  ///< bytes from one row to the next (Pitch2D)
    std::array<TexAddress, 2> address{TexAddress::Clamp, TexAddress::Clamp};  ///< x, y
    TexFilter filter = TexFilter::Point;
    bool normalized_coords = false;      ///< coordinates in [0, 1) instead of texels
    bool normalized_read = false;        ///< 8/16-bit integers read as floats in [0, 1] / [-1, 1]
    std::array<float, 4> border{};       ///< TexAddress::Border colour

    unsigned texel_bytes() const;
    /// Throws std::invalid_argument naming the field when the descriptor is unusable.
    void validate() const;
};

/// Texture objects by handle (the value a kernel receives as cudaTextureObject_t).
using TextureTable = std::unordered_map<uint64_t, TextureDesc>;

/// Four components of a texture read, as floats or as raw 32-bit integers.
struct Texel {
    std::array<uint32_t, 4> bits{};  ///< f32 bits, or integer values for integer reads
};

/// tex1Dfetch: element `i` of a Linear texture; out of range reads 0. `addr` gets the texel's
/// device address (or 0 when out of range).
Texel tex_fetch(const TextureDesc& t, const sim::SparseMemory& mem, int64_t i, uint64_t& addr);

/// tex2D at float coordinates (x, y) with the descriptor's addressing, coordinate
/// normalisation and filter (linear: the hardware's 1.8 fixed-point weights). `addr` gets the
/// device address of the first texel read.
Texel tex_sample_2d(const TextureDesc& t, const sim::SparseMemory& mem, float x, float y, uint64_t& addr);

/// Whether reads of `t` return floats (float channels or normalized integer reads).
bool tex_returns_float(const TextureDesc& t);

}  // namespace stacksim::core
