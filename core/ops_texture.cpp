// SPDX-License-Identifier: Apache-2.0
// Texture fetches: tex.1d (tex1Dfetch on linear memory) and tex.2d (tex2D on pitched memory)
// with .v4 results. Timing: a global load of the first texel each lane reads, through the
// SM's L1 path (the texture cache is the L1 for now).
#include "core/ops_common.h"
#include "core/texture.h"

namespace stacksim::core::ops {

// tex.{1d,2d}.v4.dtype.ctype {d0, d1, d2, d3}, [handle, {x[, y]}]: `mode` = 1 (1d) or 2 (2d),
// `type` = dtype, `src_type` = ctype. src[0] is the handle register, src[1] the coordinates.
void exec_tex(const Instruction& in, WarpExecContext& w, uint32_t mask, ExecResult& out) {
    const TextureTable* table = w.cta->textures;
    out.space = StateSpace::Global;
    out.is_load = true;
    out.access_bytes = 4;
    for_lanes(mask, [&](unsigned l) {
        const uint64_t handle = read_raw(in.src[0], w, l);
        const TextureDesc* t = nullptr;
        if (table) {
            auto it = table->find(handle);
            if (it != table->end()) t = &it->second;
        }
        if (!t) fail(in, "unknown texture object " + std::to_string(handle));
        if (!w.cta->global) fail(in, "no global memory attached");
        auto coord = [&](unsigned k) { return w.regs[in.src[1].vec[k] * kWarpSize + l]; };
        uint64_t addr = 0;
        Texel x;
        if (in.mode == 1) {
            if (t->resource != TexResource::Linear) fail(in, "tex.1d needs a texture over linear memory");
            const int64_t i = in.src_type == DataType::S32 ? int64_t(int32_t(coord(0)))
                                                            : int64_t(std::floor(from_bits<float>(coord(0))));
            x = tex_fetch(*t, *w.cta->global, i, addr);
        } else {
            if (t->resource != TexResource::Pitch2D) fail(in, "tex.2d needs a texture over pitched 2-D memory");
            float u, v;
            if (in.src_type == DataType::S32) u = float(int32_t(coord(0))), v = float(int32_t(coord(1)));
            else u = from_bits<float>(coord(0)), v = from_bits<float>(coord(1));
            if (in.src_type == DataType::S32) u += 0.5f, v += 0.5f;  // integer coordinates name texels
            x = tex_sample_2d(*t, *w.cta->global, u, v, addr);
        }
        out.addr[l] = addr ? addr : t->base;  // an all-border read still costs an access
        out.access_bytes = uint8_t(t->texel_bytes());
        const bool want_float = in.type == DataType::F32;
        const bool have_float = tex_returns_float(*t);
        for (unsigned c = 0; c < 4; ++c) {
            const uint16_t r = in.dst[0].vec[c];
            if (r == kNoReg) continue;
            uint32_t b = x.bits[c];
            if (want_float && !have_float) b = uint32_t(to_bits(float(int32_t(b))));
            if (!want_float && have_float) b = uint32_t(int32_t(from_bits<float>(b)));
            w.regs[r * kWarpSize + l] = b;
        }
    });
}

}  // namespace stacksim::core::ops
