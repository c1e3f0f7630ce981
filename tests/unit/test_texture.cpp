// SPDX-License-Identifier: Apache-2.0
// Texture sampling (core/texture.h): fetch bounds, address modes, normalised reads, linear
// filtering weights, descriptor validation.
#include <catch2/catch.hpp>

#include <cstring>
#include <stdexcept>

#include "core/texture.h"

using namespace stacksim;
using core::TexAddress;

namespace {

float f(const core::Texel& t, unsigned c = 0) {
    float v;
    std::memcpy(&v, &t.bits[c], 4);
    return v;
}

/// A 4x2 f32 image at 0x1000 (pitch 32 bytes): texel (i, j) = 10 j + i.
core::TextureDesc image(sim::SparseMemory& mem) {
    for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 4; ++i) mem.store<float>(0x1000 + j * 32 + i * 4, float(10 * j + i));
    core::TextureDesc t;
    t.resource = core::TexResource::Pitch2D;
    t.base = 0x1000;
    t.width = 4;
    t.height = 2;
    t.pitch = 32;
    return t;
}

}  // namespace

TEST_CASE("texture: tex1Dfetch reads texels in range and zeros outside", "[texture]") {
    sim::SparseMemory mem;
    for (int i = 0; i < 8; ++i) mem.store<int32_t>(0x2000 + 4 * i, -i);
    core::TextureDesc t;
    t.base = 0x2000;
    t.channel = core::TexChannel::Signed32;
    t.width = 8;
    uint64_t addr = 0;
    CHECK(int32_t(core::tex_fetch(t, mem, 5, addr).bits[0]) == -5);
    CHECK(addr == 0x2000 + 20);
    CHECK(core::tex_fetch(t, mem, 8, addr).bits[0] == 0);
    CHECK(core::tex_fetch(t, mem, -1, addr).bits[0] == 0);
    CHECK(addr == 0);
}

TEST_CASE("texture: point sampling with clamp and border and wrap and mirror", "[texture]") {
    sim::SparseMemory mem;
    core::TextureDesc t = image(mem);
    uint64_t a = 0;
    CHECK(f(core::tex_sample_2d(t, mem, 2.9f, 1.2f, a)) == 12.0f);
    CHECK(a == 0x1000 + 32 + 8);
    CHECK(f(core::tex_sample_2d(t, mem, -3.0f, 5.0f, a)) == 10.0f);  // clamp
    t.address = {TexAddress::Border, TexAddress::Border};
    t.border = {-1.0f, 0, 0, 0};
    CHECK(f(core::tex_sample_2d(t, mem, 4.0f, 0.5f, a)) == -1.0f);
    t.normalized_coords = true;
    t.address = {TexAddress::Wrap, TexAddress::Clamp};
    CHECK(f(core::tex_sample_2d(t, mem, 1.3f, 0.0f, a)) == 1.0f);  // frac 0.3 * 4 -> texel 1
    t.address = {TexAddress::Mirror, TexAddress::Clamp};
    CHECK(f(core::tex_sample_2d(t, mem, 1.3f, 0.0f, a)) == 2.0f);  // mirrored: 0.7 * 4 -> texel 2
    CHECK(f(core::tex_sample_2d(t, mem, -0.1f, 0.6f, a)) == 10.0f);  // mirrored: 0.1 * 4 -> texel 0
}

TEST_CASE("texture: linear filtering uses 8-bit fractional weights", "[texture]") {
    sim::SparseMemory mem;
    core::TextureDesc t = image(mem);
    t.filter = core::TexFilter::Linear;
    uint64_t a = 0;
    // Texel centres are at i + 0.5: x = 1.5 is texel 1 exactly; x = 1.75 is 1/4 of the way to 2.
    CHECK(f(core::tex_sample_2d(t, mem, 1.5f, 0.5f, a)) == 1.0f);
    CHECK(f(core::tex_sample_2d(t, mem, 1.75f, 0.5f, a)) == 1.25f);
    CHECK(f(core::tex_sample_2d(t, mem, 1.5f, 1.0f, a)) == 6.0f);  // halfway between rows
    // 1/3 of a texel quantises to 85/256.
    CHECK(f(core::tex_sample_2d(t, mem, 1.5f + 1.0f / 3.0f, 0.5f, a)) == 1.0f + 85.0f / 256.0f);
}

TEST_CASE("texture: normalised integer reads and descriptor checks", "[texture]") {
    sim::SparseMemory mem;
    const uint8_t rgba[4] = {0, 255, 51, 128};
    mem.write(0x3000, rgba, 4);
    core::TextureDesc t;
    t.base = 0x3000;
    t.channel = core::TexChannel::Unsigned8;
    t.channels = 4;
    t.width = 1;
    t.normalized_read = true;
    uint64_t a = 0;
    const core::Texel x = core::tex_fetch(t, mem, 0, a);
    CHECK(f(x, 0) == 0.0f);
    CHECK(f(x, 1) == 1.0f);
    CHECK(f(x, 2) == 0.2f);
    CHECK(f(x, 3) == 128.0f / 255.0f);
    t.normalized_read = false;
    CHECK(core::tex_fetch(t, mem, 0, a).bits[1] == 255);
    t.channels = 3;
    CHECK_THROWS_WITH(t.validate(), Catch::Contains("channels"));
    t.channels = 1;
    t.filter = core::TexFilter::Linear;
    CHECK_THROWS_WITH(t.validate(), Catch::Contains("linear filtering"));
}
