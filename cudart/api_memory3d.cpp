// SPDX-License-Identifier: Apache-2.0
// Pitched 3-D linear memory: cudaMalloc3D, cudaMemcpy3D[Async] and cudaMemset3D[Async] between
// linear memory (device or host), as one 2-D copy or memset per slice. CUDA arrays (3-D arrays,
// cudaMalloc3DArray) are not served.
#include "cudart/api_common.h"

using stacksim::cudart::Runtime;

extern "C" {
cudaError_t cudaMallocPitch(void**, size_t*, size_t, size_t);
cudaError_t cudaMemcpy2D(void*, size_t, const void*, size_t, size_t, size_t, int);
cudaError_t cudaMemcpy2DAsync(void*, size_t, const void*, size_t, size_t, size_t, int, cudaStream_t);
cudaError_t cudaMemset2D(void*, size_t, int, size_t, size_t);
cudaError_t cudaMemset2DAsync(void*, size_t, int, size_t, size_t, cudaStream_t);
}

namespace {

/// Byte address of (x, y, z) in pitched memory `p` (slices of `p.ysize` rows of `p.pitch` bytes).
char* at(const cudaPitchedPtr& p, const cudaPos& pos, size_t z) {
    return static_cast<char*>(p.ptr) + ((pos.z + z) * p.ysize + pos.y) * p.pitch + pos.x;
}

/// Copies slice by slice; `async` goes through cudaMemcpy2DAsync on `stream`.
cudaError_t copy_3d(const cudaMemcpy3DParms* p, bool async, cudaStream_t stream) {
    auto& rt = Runtime::get();
    if (!p) return rt.set_error(cudaErrorInvalidValue);
    if (p->srcArray || p->dstArray) {
        Runtime::say("cudaMemcpy3D with CUDA arrays is not supported by stacksim (linear memory only)");
        return rt.set_error(cudaErrorNotSupported);
    }
    const cudaExtent& e = p->extent;
    if (e.width == 0 || e.height == 0 || e.depth == 0) return cudaSuccess;
    if (!p->srcPtr.ptr || !p->dstPtr.ptr) return rt.set_error(cudaErrorInvalidValue);
    // A slice of more than one row needs rows of the given pitch; several slices need ysize.
    if (p->srcPos.x + e.width > p->srcPtr.pitch || p->dstPos.x + e.width > p->dstPtr.pitch)
        return rt.set_error(cudaErrorInvalidPitchValue);
    if ((e.depth > 1 || p->srcPos.z || p->dstPos.z) &&
        (p->srcPos.y + e.height > p->srcPtr.ysize || p->dstPos.y + e.height > p->dstPtr.ysize))
        return rt.set_error(cudaErrorInvalidValue);
    for (size_t z = 0; z < e.depth; ++z) {
        char* dst = at(p->dstPtr, p->dstPos, z);
        const char* src = at(p->srcPtr, p->srcPos, z);
        const cudaError_t r =
            async ? cudaMemcpy2DAsync(dst, p->dstPtr.pitch, src, p->srcPtr.pitch, e.width, e.height, p->kind, stream)
                  : cudaMemcpy2D(dst, p->dstPtr.pitch, src, p->srcPtr.pitch, e.width, e.height, p->kind);
        if (r != cudaSuccess) return r;
    }
    return cudaSuccess;
}

cudaError_t set_3d(cudaPitchedPtr p, int value, cudaExtent e, bool async, cudaStream_t stream) {
    auto& rt = Runtime::get();
    if (e.width == 0 || e.height == 0 || e.depth == 0) return cudaSuccess;
    if (!p.ptr || e.width > p.pitch || (e.depth > 1 && e.height > p.ysize)) return rt.set_error(cudaErrorInvalidValue);
    for (size_t z = 0; z < e.depth; ++z) {
        char* slice = static_cast<char*>(p.ptr) + z * p.ysize * p.pitch;
        const cudaError_t r = async ? cudaMemset2DAsync(slice, p.pitch, value, e.width, e.height, stream)
                                    : cudaMemset2D(slice, p.pitch, value, e.width, e.height);
        if (r != cudaSuccess) return r;
    }
    return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t cudaMalloc3D(cudaPitchedPtr* out, cudaExtent e) {
    if (!out) return Runtime::get().set_error(cudaErrorInvalidValue);
    *out = cudaPitchedPtr{nullptr, 0, e.width, e.height};
    size_t pitch = 0;
    if (cudaError_t r = cudaMallocPitch(&out->ptr, &pitch, e.width, e.height * e.depth)) return r;
    out->pitch = pitch;
    return cudaSuccess;
}

cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p) { return copy_3d(p, false, nullptr); }
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream) { return copy_3d(p, true, stream); }
cudaError_t cudaMemcpy3D_ptds(const cudaMemcpy3DParms* p) { return copy_3d(p, false, nullptr); }
cudaError_t cudaMemcpy3DAsync_ptsz(const cudaMemcpy3DParms* p, cudaStream_t stream) { return copy_3d(p, true, stream); }

cudaError_t cudaMemset3D(cudaPitchedPtr p, int value, cudaExtent e) { return set_3d(p, value, e, false, nullptr); }
cudaError_t cudaMemset3DAsync(cudaPitchedPtr p, int value, cudaExtent e, cudaStream_t stream) {
    return set_3d(p, value, e, true, stream);
}
cudaError_t cudaMemset3D_ptds(cudaPitchedPtr p, int value, cudaExtent e) { return set_3d(p, value, e, false, nullptr); }
cudaError_t cudaMemset3DAsync_ptsz(cudaPitchedPtr p, int value, cudaExtent e, cudaStream_t stream) {
    return set_3d(p, value, e, true, stream);
}

}  // extern "C"
