// SPDX-License-Identifier: Apache-2.0
// Texture objects on linear and pitched device memory (cudaCreateTextureObject and friends),
// mapped to the simulator's texture descriptors (core/texture.h); 2-D CUDA arrays read as
// pitched memory (cudart/array_object.h).
#include <fmt/format.h>

#include <cstddef>
#include <map>
#include <stdexcept>
#include <utility>

#include "cudart/api_common.h"
#include "cudart/array_object.h"

using stacksim::cudart::Runtime;
using namespace stacksim;

static_assert(sizeof(cudaResourceDesc) == 144 && offsetof(cudaResourceDesc, res) == 8, "CUDA 13's cudaResourceDesc");
static_assert(sizeof(cudaTextureDesc) == 72, "CUDA 13's cudaTextureDesc");
static_assert(sizeof(cudaChannelFormatDesc) == 20, "CUDA 13's cudaChannelFormatDesc");

namespace {

/// The descriptors each live texture object was created from (cudaGetTextureObject*Desc).
std::map<cudaTextureObject_t, std::pair<cudaResourceDesc, cudaTextureDesc>>& objects() {
    static auto* m = new std::map<cudaTextureObject_t, std::pair<cudaResourceDesc, cudaTextureDesc>>();
    return *m;
}

/// The simulator's texel format for a channel descriptor; false when it has none.
bool channel_format(const cudaChannelFormatDesc& d, bool normalized_read, core::TextureDesc& t) {
    const int bits = d.x;
    const int n = 1 + (d.y != 0) + (d.z != 0) + (d.w != 0);
    if ((d.y && d.y != bits) || (d.z && d.z != bits) || (d.w && d.w != bits) || (d.z && !d.y) || (d.w && !d.z))
        return false;
    if (n == 3) return false;
    t.channels = static_cast<uint8_t>(n);
    t.normalized_read = normalized_read;
    switch (d.f) {
    case cudaChannelFormatKindFloat:
        if (bits != 32) return false;  // half-precision texels are not modelled
        t.channel = core::TexChannel::Float32;
        t.normalized_read = false;
        return true;
    case cudaChannelFormatKindSigned:
    case cudaChannelFormatKindUnsigned: {
        const bool s = d.f == cudaChannelFormatKindSigned;
        if (bits == 32) t.channel = s ? core::TexChannel::Signed32 : core::TexChannel::Unsigned32;
        else if (bits == 16) t.channel = s ? core::TexChannel::Signed16 : core::TexChannel::Unsigned16;
        else if (bits == 8) t.channel = s ? core::TexChannel::Signed8 : core::TexChannel::Unsigned8;
        else return false;
        if (bits == 32) t.normalized_read = false;
        return true;
    }
    default: return false;
    }
}

core::TexAddress address_mode(int m) {
    switch (m) {
    case 0: return core::TexAddress::Wrap;
    case 2: return core::TexAddress::Mirror;
    case 3: return core::TexAddress::Border;
    default: return core::TexAddress::Clamp;
    }
}

}  // namespace

extern "C" {

cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f) { return {x, y, z, w, f}; }

cudaError_t cudaCreateTextureObject(cudaTextureObject_t* tex, const cudaResourceDesc* res, const cudaTextureDesc* td,
                                    const void* view) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!tex || !res || !td) return rt.set_error(cudaErrorInvalidValue);
    if (view) return rt.unsupported("cudaCreateTextureObject with a resource view");
    if (res->resType == cudaResourceTypeMipmappedArray)
        return rt.unsupported("cudaCreateTextureObject on a mipmapped array");
    core::TextureDesc t;
    const bool normalized_read = td->readMode == 1;  // cudaReadModeNormalizedFloat
    uint64_t span = 0;
    if (res->resType == cudaResourceTypeLinear) {
        const auto& l = res->res.linear;
        if (!channel_format(l.desc, normalized_read, t)) return rt.set_error(cudaErrorInvalidChannelDescriptor);
        t.resource = core::TexResource::Linear;
        t.base = reinterpret_cast<uint64_t>(l.devPtr);
        t.width = static_cast<uint32_t>(l.sizeInBytes / t.texel_bytes());
        t.height = 1;
        span = l.sizeInBytes;
    } else if (res->resType == cudaResourceTypeArray) {
        // A 2-D CUDA array is pitched memory whose pitch is its row (cudart/array_object.h).
        const cudart::ArrayObject* a = cudart::find_array(res->res.array.array);
        if (!a) return rt.set_error(cudaErrorInvalidResourceHandle);
        if (a->height == 0) return rt.unsupported("cudaCreateTextureObject on a 1-D CUDA array (tex1D)");
        if (!channel_format(a->desc, normalized_read, t)) return rt.set_error(cudaErrorInvalidChannelDescriptor);
        t.resource = core::TexResource::Pitch2D;
        t.base = a->base;
        t.width = static_cast<uint32_t>(a->width);
        t.height = static_cast<uint32_t>(a->height);
        t.pitch = a->row_bytes();
        span = a->row_bytes() * a->height;
    } else if (res->resType == cudaResourceTypePitch2D) {
        const auto& p = res->res.pitch2D;
        if (!channel_format(p.desc, normalized_read, t)) return rt.set_error(cudaErrorInvalidChannelDescriptor);
        t.resource = core::TexResource::Pitch2D;
        t.base = reinterpret_cast<uint64_t>(p.devPtr);
        t.width = static_cast<uint32_t>(p.width);
        t.height = static_cast<uint32_t>(p.height);
        t.pitch = p.pitchInBytes;
        span = p.height ? p.pitchInBytes * (p.height - 1) + p.width * t.texel_bytes() : 0;
    } else {
        return rt.set_error(cudaErrorInvalidValue);
    }
    t.address = {address_mode(td->addressMode[0]), address_mode(td->addressMode[1])};
    t.filter = td->filterMode == 1 ? core::TexFilter::Linear : core::TexFilter::Point;
    t.normalized_coords = td->normalizedCoords != 0;
    for (int i = 0; i < 4; ++i) t.border[static_cast<size_t>(i)] = td->borderColor[i];
    try {
        t.validate();
    } catch (const std::invalid_argument& e) {
        Runtime::say(fmt::format("cudaCreateTextureObject: {}", e.what()));
        return rt.set_error(cudaErrorInvalidValue);
    }
    if (!rt.is_device_range(t.base, span)) return rt.set_error(cudaErrorInvalidValue);
    uint64_t handle = 0;
    if (cudaError_t e = rt.call([&](workloads::HostApi& h) { handle = h.create_texture_object(t); },
                                cudaErrorInvalidValue))
        return e;
    *tex = handle;
    objects()[handle] = {*res, *td};
    return cudaSuccess;
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t tex) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (tex == 0) return cudaSuccess;
    if (!objects().erase(tex)) return rt.set_error(cudaErrorInvalidValue);
    if (rt.stopped()) return cudaSuccess;
    return rt.call([&](workloads::HostApi& h) { h.destroy_texture_object(tex); });
}

cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* res, cudaTextureObject_t tex) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    auto it = objects().find(tex);
    if (!res || it == objects().end()) return rt.set_error(cudaErrorInvalidValue);
    *res = it->second.first;
    return cudaSuccess;
}

cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc* td, cudaTextureObject_t tex) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    auto it = objects().find(tex);
    if (!td || it == objects().end()) return rt.set_error(cudaErrorInvalidValue);
    *td = it->second.second;
    return cudaSuccess;
}

}  // extern "C"
