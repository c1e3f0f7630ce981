// SPDX-License-Identifier: Apache-2.0
// CUDA arrays: allocation, copies to and from them, queries. An array is row-major device memory
// without padding (its pitch is its row), so its copies are the 2-D copies of api_memory.cpp and
// a texture on it reads pitched memory. Layered, 3-D and surface arrays are not modelled.
#include <map>
#include <memory>

#include "cudart/api_common.h"
#include "cudart/array_object.h"

using stacksim::cudart::ArrayObject;
using stacksim::cudart::Runtime;
using namespace stacksim;

extern "C" {
cudaError_t cudaMalloc(void**, size_t);
cudaError_t cudaFree(void*);
cudaError_t cudaMemcpy(void*, const void*, size_t, int);
cudaError_t cudaMemcpy2D(void*, size_t, const void*, size_t, size_t, size_t, int);
}

namespace {

std::map<const void*, std::unique_ptr<ArrayObject>>& arrays() {
    static auto* m = new std::map<const void*, std::unique_ptr<ArrayObject>>();
    return *m;
}

/// The array's address of byte `w_offset` in row `h_offset` when a `width` x `height` byte
/// region from there lies inside it; null otherwise.
char* at(const ArrayObject* a, size_t w_offset, size_t h_offset, size_t width, size_t height) {
    if (!a || w_offset + width > a->row_bytes() || h_offset + height > a->rows()) return nullptr;
    return reinterpret_cast<char*>(a->base + h_offset * a->row_bytes() + w_offset);
}

/// A linear copy of `count` bytes from (w_offset, h_offset) on, wrapping rows as CUDA does.
char* at_linear(const ArrayObject* a, size_t w_offset, size_t h_offset, size_t count) {
    if (!a || w_offset > a->row_bytes() || h_offset >= a->rows()) return nullptr;
    const size_t start = h_offset * a->row_bytes() + w_offset;
    if (start + count > a->rows() * a->row_bytes()) return nullptr;
    return reinterpret_cast<char*>(a->base + start);
}

const ArrayObject* lookup(const void* a) {
    auto it = arrays().find(a);
    return it == arrays().end() ? nullptr : it->second.get();
}

/// The bytes of `array` at (w_offset, h_offset) for a width x height copy, and its row pitch;
/// cudaErrorInvalidValue (also set as the last error) for an unknown array or a region past it.
cudaError_t region_2d(const void* array, size_t w_offset, size_t h_offset, size_t width, size_t height, char*& bytes,
                      size_t& pitch) {
    auto& rt = stacksim::cudart::Runtime::get();
    auto lk = rt.lock();
    const ArrayObject* a = lookup(array);
    bytes = at(a, w_offset, h_offset, width, height);
    if (!bytes) return rt.set_error(cudaErrorInvalidValue);
    pitch = a->row_bytes();
    return cudaSuccess;
}

}  // namespace

namespace stacksim::cudart {
const ArrayObject* find_array(const void* a) { return lookup(a); }
}  // namespace stacksim::cudart

extern "C" {

cudaError_t cudaMallocArray(void** array, const cudaChannelFormatDesc* desc, size_t width, size_t height,
                            unsigned flags) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!array || !desc || width == 0) return rt.set_error(cudaErrorInvalidValue);
    if (flags != 0) return rt.unsupported("cudaMallocArray with flags (surface load/store, layered, gather)");
    const int bits = desc->x + desc->y + desc->z + desc->w;
    if (bits <= 0 || bits % 8 != 0) return rt.set_error(cudaErrorInvalidChannelDescriptor);
    auto a = std::make_unique<ArrayObject>();
    a->desc = *desc;
    a->width = width;
    a->height = height;
    a->elem_bytes = static_cast<size_t>(bits / 8);
    void* p = nullptr;
    if (cudaError_t e = cudaMalloc(&p, a->row_bytes() * a->rows())) return e;
    a->base = reinterpret_cast<uint64_t>(p);
    *array = a.get();
    arrays()[a.get()] = std::move(a);
    return cudaSuccess;
}

cudaError_t cudaFreeArray(void* array) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!array) return cudaSuccess;
    auto it = arrays().find(array);
    if (it == arrays().end()) return rt.set_error(cudaErrorInvalidValue);
    const uint64_t base = it->second->base;
    arrays().erase(it);
    return cudaFree(reinterpret_cast<void*>(base));
}

cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, size_t* extent, unsigned* flags, void* array) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    const ArrayObject* a = lookup(array);
    if (!a) return rt.set_error(cudaErrorInvalidResourceHandle);
    if (desc) *desc = a->desc;
    if (extent) {  // cudaExtent: width, height, depth
        extent[0] = a->width;
        extent[1] = a->height;
        extent[2] = 0;
    }
    if (flags) *flags = 0;
    return cudaSuccess;
}

cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc* desc, const void* array) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    const ArrayObject* a = lookup(array);
    if (!desc) return rt.set_error(cudaErrorInvalidValue);
    if (!a) return rt.set_error(cudaErrorInvalidResourceHandle);
    *desc = a->desc;
    return cudaSuccess;
}

cudaError_t cudaMemcpy2DToArray(void* dst, size_t w_offset, size_t h_offset, const void* src, size_t spitch,
                                size_t width, size_t height, int kind) {
    char* d = nullptr;
    size_t pitch = 0;
    if (const cudaError_t e = region_2d(dst, w_offset, h_offset, width, height, d, pitch)) return e;
    return cudaMemcpy2D(d, pitch, src, spitch, width, height, kind);
}

cudaError_t cudaMemcpy2DFromArray(void* dst, size_t dpitch, const void* src, size_t w_offset, size_t h_offset,
                                  size_t width, size_t height, int kind) {
    char* s = nullptr;
    size_t pitch = 0;
    if (const cudaError_t e = region_2d(src, w_offset, h_offset, width, height, s, pitch)) return e;
    return cudaMemcpy2D(dst, dpitch, s, pitch, width, height, kind);
}

cudaError_t cudaMemcpyToArray(void* dst, size_t w_offset, size_t h_offset, const void* src, size_t count, int kind) {
    char* d = nullptr;
    {
        auto& rt = Runtime::get();
        auto lk = rt.lock();
        d = at_linear(lookup(dst), w_offset, h_offset, count);
        if (!d) return rt.set_error(cudaErrorInvalidValue);
    }
    return cudaMemcpy(d, src, count, kind);
}

cudaError_t cudaMemcpyFromArray(void* dst, const void* src, size_t w_offset, size_t h_offset, size_t count, int kind) {
    char* s = nullptr;
    {
        auto& rt = Runtime::get();
        auto lk = rt.lock();
        s = at_linear(lookup(src), w_offset, h_offset, count);
        if (!s) return rt.set_error(cudaErrorInvalidValue);
    }
    return cudaMemcpy(dst, s, count, kind);
}

cudaError_t cudaMemcpy2DToArrayAsync(void* dst, size_t w_offset, size_t h_offset, const void* src, size_t spitch,
                                     size_t width, size_t height, int kind, cudaStream_t stream) {
    (void)stream;  // copies are synchronous (docs)
    return cudaMemcpy2DToArray(dst, w_offset, h_offset, src, spitch, width, height, kind);
}

cudaError_t cudaMemcpy2DFromArrayAsync(void* dst, size_t dpitch, const void* src, size_t w_offset, size_t h_offset,
                                       size_t width, size_t height, int kind, cudaStream_t stream) {
    (void)stream;
    return cudaMemcpy2DFromArray(dst, dpitch, src, w_offset, h_offset, width, height, kind);
}

cudaError_t cudaMemcpyToArrayAsync(void* dst, size_t w_offset, size_t h_offset, const void* src, size_t count,
                                   int kind, cudaStream_t stream) {
    (void)stream;
    return cudaMemcpyToArray(dst, w_offset, h_offset, src, count, kind);
}

cudaError_t cudaMemcpyFromArrayAsync(void* dst, const void* src, size_t w_offset, size_t h_offset, size_t count,
                                     int kind, cudaStream_t stream) {
    (void)stream;
    return cudaMemcpyFromArray(dst, src, w_offset, h_offset, count, kind);
}

cudaError_t cudaMemcpy2DToArrayAsync_ptsz(void* dst, size_t w_offset, size_t h_offset, const void* src, size_t spitch,
                                          size_t width, size_t height, int kind, cudaStream_t stream) {
    return cudaMemcpy2DToArrayAsync(dst, w_offset, h_offset, src, spitch, width, height, kind, stream);
}

cudaError_t cudaMemcpy2DToArray_ptds(void* dst, size_t w_offset, size_t h_offset, const void* src, size_t spitch,
                                     size_t width, size_t height, int kind) {
    return cudaMemcpy2DToArray(dst, w_offset, h_offset, src, spitch, width, height, kind);
}

cudaError_t cudaMemcpy2DFromArray_ptds(void* dst, size_t dpitch, const void* src, size_t w_offset, size_t h_offset,
                                       size_t width, size_t height, int kind) {
    return cudaMemcpy2DFromArray(dst, dpitch, src, w_offset, h_offset, width, height, kind);
}

cudaError_t cudaMemcpyToArray_ptds(void* dst, size_t w_offset, size_t h_offset, const void* src, size_t count,
                                   int kind) {
    return cudaMemcpyToArray(dst, w_offset, h_offset, src, count, kind);
}

cudaError_t cudaMemcpyFromArray_ptds(void* dst, const void* src, size_t w_offset, size_t h_offset, size_t count,
                                     int kind) {
    return cudaMemcpyFromArray(dst, src, w_offset, h_offset, count, kind);
}

}  // extern "C"
