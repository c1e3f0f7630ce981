// SPDX-License-Identifier: Apache-2.0
// The nvcc-compiled tex_ops kernel: texture objects created through HostApi (what
// cudaCreateTextureObject maps to), fetched and sampled on the simulated GPU, checked against a
// CPU reference of CUDA's texture-fetch rules.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

#include "core/texture.h"
#include "tests/system/sim_harness.h"

using namespace stacksim;
using stacksim::test::HarnessKernel;
using stacksim::test::run_kernel;

namespace {

std::string ptx_file(const std::string& name) {
    std::ifstream f(std::string(STACKSIM_SOURCE_DIR) + "/tests/data/ptx/" + name + ".ptx");
    REQUIRE(f);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

constexpr int kW = 16, kH = 8, kPitchFloats = 20;

float image(int i, int j) { return float(i * 3 + j * 50) * 0.25f - 7.0f; }

/// CUDA's fetch rules for an unnormalised (or normalised, `norm`) 2-D float texture.
float sample(float x, float y, bool linear, core::TexAddress mode, bool norm) {
    auto texel = [&](int64_t i, int64_t j) -> float {
        auto fix = [&](int64_t& k, int64_t n) {
            if (k >= 0 && k < n) return true;
            if (mode == core::TexAddress::Border) return false;
            if (mode == core::TexAddress::Wrap) k = ((k % n) + n) % n;
            else k = k < 0 ? 0 : n - 1;
            return true;
        };
        const bool in_x = fix(i, kW), in_y = fix(j, kH);
        return in_x && in_y ? image(int(i), int(j)) : 0.0f;
    };
    if (norm) {  // wrap: the fractional part of the normalised coordinate, in texels
        x = (x - std::floor(x)) * kW;
        y = (y - std::floor(y)) * kH;
    }
    if (!linear) return texel(int64_t(std::floor(x)), int64_t(std::floor(y)));
    const float xb = x - 0.5f, yb = y - 0.5f;
    const float i = std::floor(xb), j = std::floor(yb);
    const float a = std::round((xb - i) * 256) / 256, b = std::round((yb - j) * 256) / 256;
    const int64_t ii = int64_t(i), jj = int64_t(j);
    return (1 - a) * (1 - b) * texel(ii, jj) + a * (1 - b) * texel(ii + 1, jj) + (1 - a) * b * texel(ii, jj + 1) +
           a * b * texel(ii + 1, jj + 1);
}

}  // namespace

TEST_CASE("kernels: texture objects over linear and pitched memory match CUDA's fetch rules", "[system][texture]") {
    const int n = 200;
    const float sx = 0.173f, sy = 1.61f;
    std::vector<float> lin4(4 * 64);
    for (size_t i = 0; i < lin4.size(); ++i) lin4[i] = float(i) * 0.5f + 1.0f;
    std::vector<int32_t> lin_int(n);
    for (int i = 0; i < n; ++i) lin_int[i] = i * i - 300;
    std::vector<float> img(kPitchFloats * kH, -1000.0f);  // padding never read
    for (int j = 0; j < kH; ++j)
        for (int i = 0; i < kW; ++i) img[j * kPitchFloats + i] = image(i, j);
    std::vector<float> out;
    workloads::DevPtr d_out = 0;
    HarnessKernel k{ptx_file("tex_ops"), "tex_ops", {2, 1, 1}, {128, 1, 1}, nullptr};
    k.setup = [&](workloads::HostApi& h) {
        core::TextureDesc l4;
        l4.base = h.upload(lin4);
        l4.channels = 4;
        l4.width = 64;
        core::TextureDesc li;
        li.base = h.upload(lin_int);
        li.channel = core::TexChannel::Signed32;
        li.width = n;
        core::TextureDesc pt;
        pt.resource = core::TexResource::Pitch2D;
        pt.base = h.upload(img);
        pt.width = kW;
        pt.height = kH;
        pt.pitch = kPitchFloats * 4;
        pt.address = {core::TexAddress::Border, core::TexAddress::Border};
        core::TextureDesc ln = pt;
        ln.address = {core::TexAddress::Clamp, core::TexAddress::Clamp};
        ln.filter = core::TexFilter::Linear;
        core::TextureDesc wr = ln;
        wr.address = {core::TexAddress::Wrap, core::TexAddress::Wrap};
        wr.normalized_coords = true;
        d_out = h.malloc(6 * n * 4);
        return workloads::LaunchArgs()
            .u64(h.create_texture_object(l4))
            .u64(h.create_texture_object(li))
            .u64(h.create_texture_object(pt))
            .u64(h.create_texture_object(ln))
            .u64(h.create_texture_object(wr))
            .ptr(d_out)
            .i32(n)
            .f32(sx)
            .f32(sy);
    };
    k.after = [&](workloads::HostApi& h) { h.download(out, d_out, 6 * n); };
    const test::HarnessRun run = run_kernel(k);
    double l1_reads = 0;  // texture reads go through the L1 path
    for (const auto& [name, value] : run.stats)
        if (name.find("_l1.reads") != std::string::npos) l1_reads += value;
    CHECK(l1_reads > 0);
    for (int i = 0; i < n; ++i) {
        const float* o = &out[6 * i];
        INFO("thread " << i);
        const int e = i - 3;
        const bool in = e >= 0 && e < 64;
        CHECK(o[0] == (in ? lin4[4 * e] : 0.0f));
        CHECK(o[1] == (in ? lin4[4 * e + 1] + lin4[4 * e + 3] : 0.0f));
        CHECK(o[2] == float(lin_int[i]));
        const float x = float(i) * sx - 2.0f, y = float(i % 7) * sy - 1.0f;
        CHECK(o[3] == sample(x, y, false, core::TexAddress::Border, false));
        CHECK(o[4] == Approx(sample(x, y, true, core::TexAddress::Clamp, false)).margin(1e-4));
        CHECK(o[5] == Approx(sample(x * 0.05f, y * 0.1f, true, core::TexAddress::Wrap, true)).margin(1e-4));
    }
}

TEST_CASE("kernels: a bad texture descriptor is one clear error", "[system][texture]") {
    HarnessKernel k{ptx_file("tex_ops"), "tex_ops", {1, 1, 1}, {32, 1, 1}, nullptr};
    k.setup = [&](workloads::HostApi& h) {
        core::TextureDesc t;
        t.resource = core::TexResource::Pitch2D;
        t.base = h.malloc(4096);
        t.width = 64;
        t.height = 4;
        t.pitch = 128;  // smaller than a row of 64 floats
        h.create_texture_object(t);
        return workloads::LaunchArgs();
    };
    CHECK_THROWS_WITH(run_kernel(k), Catch::Contains("pitch is smaller than a row"));
}
