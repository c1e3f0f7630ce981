// SPDX-License-Identifier: Apache-2.0
// Texture sampling: texel decoding, addressing modes, point and linear filtering.
#include "core/texture.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

namespace stacksim::core {
namespace {

unsigned channel_bytes(TexChannel c) {
    switch (c) {
    case TexChannel::Float32: case TexChannel::Signed32: case TexChannel::Unsigned32: return 4;
    case TexChannel::Signed16: case TexChannel::Unsigned16: return 2;
    case TexChannel::Signed8: case TexChannel::Unsigned8: return 1;
    }
    return 4;
}

/// Component values of the texel at `addr`: floats (exact integers for non-normalised
/// integer channels are kept in `ints`).
struct Raw {
    std::array<float, 4> f{};
    std::array<uint32_t, 4> i{};
};

Raw read_texel(const TextureDesc& t, const sim::SparseMemory& mem, uint64_t addr) {
    Raw r;
    const unsigned cb = channel_bytes(t.channel);
    uint8_t buf[16] = {};
    mem.read(addr, buf, cb * t.channels);
    for (unsigned c = 0; c < t.channels; ++c) {
        const uint8_t* p = buf + c * cb;
        uint32_t u = 0;
        std::memcpy(&u, p, cb);
        float f = 0;
        switch (t.channel) {
        case TexChannel::Float32: std::memcpy(&f, &u, 4); break;
        case TexChannel::Signed32: f = float(int32_t(u)); break;
        case TexChannel::Unsigned32: f = float(u); break;
        // Normalised reads: unsigned / (2^n - 1); signed / (2^(n-1) - 1) clamped at -1.
        case TexChannel::Signed16: f = t.normalized_read ? std::max(-1.0f, float(int16_t(u)) / 32767.0f) : float(int16_t(u)); u = uint32_t(int32_t(int16_t(u))); break;
        case TexChannel::Unsigned16: f = t.normalized_read ? float(u) / 65535.0f : float(u); break;
        case TexChannel::Signed8: f = t.normalized_read ? std::max(-1.0f, float(int8_t(u)) / 127.0f) : float(int8_t(u)); u = uint32_t(int32_t(int8_t(u))); break;
        case TexChannel::Unsigned8: f = t.normalized_read ? float(u) / 255.0f : float(u); break;
        }
        r.f[c] = f;
        r.i[c] = u;
    }
    return r;
}

Texel to_texel(const TextureDesc& t, const std::array<float, 4>& f, const std::array<uint32_t, 4>& i) {
    Texel out;
    const bool flt = tex_returns_float(t);
    for (unsigned c = 0; c < 4; ++c) {
        if (flt) std::memcpy(&out.bits[c], &f[c], 4);
        else out.bits[c] = i[c];
    }
    return out;
}

/// Applies the address mode to integer texel index `i` of a dimension of `n` texels; false
/// when the texel is outside (border).
bool address(TexAddress m, int64_t& i, int64_t n) {
    if (i >= 0 && i < n) return true;
    switch (m) {
    case TexAddress::Wrap: i = ((i % n) + n) % n; return true;
    case TexAddress::Mirror: {
        int64_t p = ((i % (2 * n)) + 2 * n) % (2 * n);
        i = p < n ? p : 2 * n - 1 - p;
        return true;
    }
    case TexAddress::Border: return false;
    case TexAddress::Clamp: break;
    }
    i = i < 0 ? 0 : n - 1;
    return true;
}

/// Coordinate in texel units: normalised coordinates scale by the size; wrap and mirror act
/// on the normalised coordinate (CUDA allows them only with normalised coordinates).
float texel_coord(const TextureDesc& t, TexAddress m, float x, uint32_t n) {
    if (!t.normalized_coords) return x;
    if (m == TexAddress::Wrap) x = x - std::floor(x);
    if (m == TexAddress::Mirror) {
        const float fl = std::floor(x);
        const float fr = x - fl;
        x = (int64_t(fl) % 2 == 0) ? fr : 1.0f - fr;
    }
    return x * float(n);
}

}  // namespace

unsigned TextureDesc::texel_bytes() const { return channel_bytes(channel) * channels; }

void TextureDesc::validate() const {
    if (channels != 1 && channels != 2 && channels != 4) throw std::invalid_argument("texture: channels must be 1, 2 or 4");
    if (width == 0 || height == 0) throw std::invalid_argument("texture: width and height must be positive");
    if (resource == TexResource::Linear && height != 1) throw std::invalid_argument("texture: a linear texture has height 1");
    if (resource == TexResource::Pitch2D && pitch < uint64_t{width} * texel_bytes())
        throw std::invalid_argument("texture: pitch is smaller than a row");
    if (filter == TexFilter::Linear && !tex_returns_float(*this))
        throw std::invalid_argument("texture: linear filtering needs float texels or normalized reads");
    if (base % texel_bytes() != 0 && base % 4 != 0) throw std::invalid_argument("texture: base is misaligned");
}

bool tex_returns_float(const TextureDesc& t) {
    return t.channel == TexChannel::Float32 ||
           (t.normalized_read && t.channel != TexChannel::Signed32 && t.channel != TexChannel::Unsigned32);
}

Texel tex_fetch(const TextureDesc& t, const sim::SparseMemory& mem, int64_t i, uint64_t& addr) {
    if (i < 0 || i >= int64_t(t.width)) {
        addr = 0;
        return Texel{};
    }
    addr = t.base + uint64_t(i) * t.texel_bytes();
    const Raw r = read_texel(t, mem, addr);
    return to_texel(t, r.f, r.i);
}

Texel tex_sample_2d(const TextureDesc& t, const sim::SparseMemory& mem, float x, float y, uint64_t& addr) {
    const int64_t w = t.width, h = t.height;
    addr = 0;
    auto at = [&](int64_t i, int64_t j, Raw& out) {
        const bool in = address(t.address[0], i, w) & address(t.address[1], j, h);
        if (!in) {
            out = Raw{};
            out.f = t.border;
            return;
        }
        const uint64_t a = t.base + uint64_t(j) * t.pitch + uint64_t(i) * t.texel_bytes();
        if (addr == 0) addr = a;
        out = read_texel(t, mem, a);
    };
    const float u = texel_coord(t, t.address[0], x, t.width), v = texel_coord(t, t.address[1], y, t.height);
    if (t.filter == TexFilter::Point) {
        Raw r;
        at(int64_t(std::floor(u)), int64_t(std::floor(v)), r);
        return to_texel(t, r.f, r.i);
    }
    // Linear: weights in 1.8 fixed point (CUDA C Programming Guide, texture fetching).
    const float ub = u - 0.5f, vb = v - 0.5f;
    const float fi = std::floor(ub), fj = std::floor(vb);
    const float a = std::round((ub - fi) * 256.0f) / 256.0f, b = std::round((vb - fj) * 256.0f) / 256.0f;
    const int64_t i = int64_t(fi), j = int64_t(fj);
    Raw t00, t10, t01, t11;
    at(i, j, t00);
    at(i + 1, j, t10);
    at(i, j + 1, t01);
    at(i + 1, j + 1, t11);
    std::array<float, 4> f{};
    for (unsigned c = 0; c < 4; ++c)
        f[c] = (1 - a) * (1 - b) * t00.f[c] + a * (1 - b) * t10.f[c] + (1 - a) * b * t01.f[c] + a * b * t11.f[c];
    return to_texel(t, f, {});
}

}  // namespace stacksim::core
