// SPDX-License-Identifier: Apache-2.0
// Device and host memory: allocation, copies, memset (copies are timed over the simulated PCIe).
#include <cstdlib>
#include <cstring>
#include <iterator>

#include "cudart/api_common.h"
#include "cudart/mem_pool.h"
#include "cudart/stream_capture.h"

using stacksim::cudart::Runtime;
using namespace stacksim;

namespace {

uint64_t addr(const void* p) { return reinterpret_cast<uint64_t>(p); }

/// Resolves cudaMemcpyDefault from where the pointers lie; checks the device side's range.
cudaError_t resolve(Runtime& rt, void* dst, const void* src, size_t bytes, int& kind) {
    const bool dst_dev = rt.is_device_range(addr(dst), bytes);
    const bool src_dev = rt.is_device_range(addr(src), bytes);
    if (kind == cudaMemcpyDefault)
        kind = dst_dev ? (src_dev ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                       : (src_dev ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
    switch (kind) {
    case cudaMemcpyHostToHost: return cudaSuccess;
    case cudaMemcpyHostToDevice: return dst_dev ? cudaSuccess : cudaErrorInvalidValue;
    case cudaMemcpyDeviceToHost: return src_dev ? cudaSuccess : cudaErrorInvalidValue;
    case cudaMemcpyDeviceToDevice: return dst_dev && src_dev ? cudaSuccess : cudaErrorInvalidValue;
    default: return cudaErrorInvalidMemcpyDirection;
    }
}

cudaError_t copy(void* dst, const void* src, size_t bytes, int kind) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (bytes == 0) return cudaSuccess;
    if (!dst || !src) return rt.set_error(cudaErrorInvalidValue);
    if (cudaError_t e = resolve(rt, dst, src, bytes, kind)) return rt.set_error(e);
    if (kind == cudaMemcpyHostToHost) {
        std::memmove(dst, src, bytes);
        return cudaSuccess;
    }
    const bool mirrored = kind == cudaMemcpyDeviceToHost && rt.is_mirrored(addr(dst), bytes);
    return rt.call([&](workloads::HostApi& h) {
        if (kind == cudaMemcpyHostToDevice) {
            h.memcpy_h2d(addr(dst), src, bytes);
        } else if (kind == cudaMemcpyDeviceToHost) {
            h.memcpy_d2h(dst, addr(src), bytes);
            if (mirrored) h.poke(addr(dst), dst, bytes);  // into managed or mapped memory
        } else {
            h.memcpy_d2d(addr(dst), addr(src), bytes);
        }
    });
}

cudaError_t copy_2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, int kind) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (width == 0 || height == 0) return cudaSuccess;
    if (width > dpitch || width > spitch) return rt.set_error(cudaErrorInvalidPitchValue);
    if (!dst || !src) return rt.set_error(cudaErrorInvalidValue);
    const size_t dspan = dpitch * (height - 1) + width, sspan = spitch * (height - 1) + width;
    int k = kind;
    const bool dst_dev = rt.is_device_range(addr(dst), dspan), src_dev = rt.is_device_range(addr(src), sspan);
    if (k == cudaMemcpyDefault)
        k = dst_dev ? (src_dev ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                    : (src_dev ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
    if (k < 0 || k > 3) return rt.set_error(cudaErrorInvalidMemcpyDirection);
    if (((k == 1 || k == 3) && !dst_dev) || ((k == 2 || k == 3) && !src_dev)) return rt.set_error(cudaErrorInvalidValue);
    auto* d = static_cast<char*>(dst);
    const auto* s = static_cast<const char*>(src);
    if (k == cudaMemcpyHostToHost) {
        for (size_t r = 0; r < height; ++r) std::memmove(d + r * dpitch, s + r * spitch, width);
        return cudaSuccess;
    }
    const bool mirrored = k == cudaMemcpyDeviceToHost && rt.is_mirrored(addr(dst), dspan);
    return rt.call([&](workloads::HostApi& h) {
        for (size_t r = 0; r < height; ++r) {
            if (k == cudaMemcpyHostToDevice) {
                h.memcpy_h2d(addr(d + r * dpitch), s + r * spitch, width);
            } else if (k == cudaMemcpyDeviceToHost) {
                h.memcpy_d2h(d + r * dpitch, addr(s + r * spitch), width);
                if (mirrored) h.poke(addr(d + r * dpitch), d + r * dpitch, width);  // managed or mapped memory
            } else {
                h.memcpy_d2d(addr(d + r * dpitch), addr(s + r * spitch), width);
            }
        }
    });
}

/// cudaMemset[2D]: `height` rows of `width` bytes, `pitch` bytes apart.
cudaError_t set_2d(void* dst, size_t pitch, int value, size_t width, size_t height) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (width == 0 || height == 0) return cudaSuccess;
    if (width > pitch) return rt.set_error(cudaErrorInvalidPitchValue);
    const uint64_t span = pitch * (height - 1) + width;
    // Device memory, or mapped pinned memory (mirrored: the call's copy back brings the bytes home).
    if (!rt.is_device_range(addr(dst), span) && !rt.is_mirrored(addr(dst), span))
        return rt.set_error(cudaErrorInvalidValue);
    return rt.call([&](workloads::HostApi& h) {
        for (size_t r = 0; r < height; ++r) h.memset(addr(dst) + r * pitch, static_cast<uint8_t>(value), width);
    });
}

/// A synchronous call during a capture (cudart/stream_capture.h): the error, remembered.
cudaError_t unsafe_during_capture(bool legacy) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    return rt.set_error(cudart::StreamCapture::get().unsafe_call(legacy));
}

/// The stream of an asynchronous call: `*captured` when it captures (the call records a node).
cudaError_t async_target(Runtime& rt, cudaStream_t stream, cudart::StreamObject** so, bool* captured) {
    bool ok = false;
    *so = rt.stream(stream, &ok);
    if (!ok) return rt.set_error(cudaErrorInvalidResourceHandle);
    return rt.set_error(cudart::StreamCapture::get().enqueue(*so, captured));
}

cudaError_t capture_copy(cudart::StreamObject* so, const cudart::MemcpyOp& op) {
    cudart::GraphNode node;
    node.type = cudaGraphNodeTypeMemcpy;
    node.copy = op;
    cudart::StreamCapture::get().record(so, node);
    return cudaSuccess;
}

/// cudaMemset[2D]Async: a memset node on a capturing stream, else cudaMemset2D's work.
cudaError_t set_async(void* dst, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    cudart::StreamObject* so = nullptr;
    bool captured = false;
    if (cudaError_t e = async_target(rt, stream, &so, &captured)) return e;
    if (!captured) {
        // One row of device memory the program does not mirror: a stream command (ordered in
        // its stream, not waiting for other streams' work).
        if (height == 1 && width > 0 && rt.is_device_range(addr(dst), width) && !rt.is_mirrored(addr(dst), width))
            return cudart::on_stream(rt, so, [&](workloads::HostApi& h) {
                h.memset_async(addr(dst), static_cast<uint8_t>(value), width);
            });
        return set_2d(dst, pitch, value, width, height);
    }
    if (width == 0 || height == 0) return cudaSuccess;
    cudart::GraphNode node;
    node.type = cudaGraphNodeTypeMemset;
    const cudaMemsetParams p{dst, pitch, static_cast<unsigned>(value) & 0xffu, 1, width, height};
    if (cudaError_t e = cudart::memset_op_from(rt, p, node.set)) return rt.set_error(e);
    cudart::StreamCapture::get().record(so, node);
    return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t cudaMalloc(void** ptr, size_t bytes) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (cudaError_t e = unsafe_during_capture(false)) return e;
    if (!ptr) return rt.set_error(cudaErrorInvalidValue);
    *ptr = nullptr;
    if (bytes == 0) return cudaSuccess;
    if (bytes > (uint64_t{1} << 40)) return rt.set_error(cudaErrorMemoryAllocation);
    workloads::DevPtr d = 0;
    if (cudaError_t e = rt.call([&](workloads::HostApi& h) { d = h.malloc(bytes); }, cudaErrorMemoryAllocation))
        return e;
    rt.device_allocations()[d] = bytes;
    *ptr = reinterpret_cast<void*>(d);
    return cudaSuccess;
}

cudaError_t cudaMallocManaged(void** ptr, size_t bytes, unsigned flags) {
    (void)flags;  // cudaMemAttachGlobal / Host: one application, one GPU
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!ptr) return rt.set_error(cudaErrorInvalidValue);
    *ptr = nullptr;
    if (bytes == 0) return rt.set_error(cudaErrorInvalidValue);
    if (bytes > (uint64_t{1} << 38)) return rt.set_error(cudaErrorMemoryAllocation);
    workloads::DevPtr d = 0;
    if (cudaError_t e = rt.call([&](workloads::HostApi& h) { d = h.malloc_managed(bytes); }, cudaErrorMemoryAllocation))
        return e;
    if (!rt.map_managed(d, bytes)) {
        rt.call([&](workloads::HostApi& h) { h.free(d); });
        return rt.set_error(cudaErrorMemoryAllocation);
    }
    rt.device_allocations()[d] = bytes;
    *ptr = reinterpret_cast<void*>(d);
    return cudaSuccess;
}

/// To the device: the managed pages start migrating now (Gmmu::prefetch_range; not ordered
/// after the stream's earlier work). To the host: a hint (pages come back when the host
/// touches them).
cudaError_t cudaMemPrefetchAsync(const void* p, size_t bytes, cudaMemLocation location, unsigned flags,
                                 cudaStream_t stream) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    (void)flags;
    bool ok = false;
    rt.stream(stream, &ok);
    if (!ok) return rt.set_error(cudaErrorInvalidResourceHandle);
    if (bytes == 0 || location.type != cudaMemLocationTypeDevice || !rt.is_mirrored(addr(p), bytes))
        return cudaSuccess;
    return rt.call([&](workloads::HostApi& h) { h.prefetch_to_device(addr(p), bytes); });
}

cudaError_t cudaMemPrefetchAsync_ptsz(const void* p, size_t bytes, cudaMemLocation location, unsigned flags,
                                      cudaStream_t stream) {
    return cudaMemPrefetchAsync(p, bytes, location, flags, stream);
}

cudaError_t cudaMemAdvise(const void* p, size_t bytes) {
    (void)p, (void)bytes;
    return cudaSuccess;  // a hint
}

cudaError_t cudaMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height) {
    if (!pitch) return Runtime::get().set_error(cudaErrorInvalidValue);
    constexpr size_t kPitchAlign = 512;  // cudaDeviceProp::texturePitchAlignment-like row alignment
    *pitch = (width + kPitchAlign - 1) / kPitchAlign * kPitchAlign;
    return cudaMalloc(ptr, *pitch * height);
}

cudaError_t cudaFree(void* ptr) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (cudaError_t e = unsafe_during_capture(false)) return e;
    if (!ptr) return cudaSuccess;
    auto it = rt.device_allocations().find(addr(ptr));
    if (it == rt.device_allocations().end()) return rt.set_error(cudaErrorInvalidValue);
    rt.device_allocations().erase(it);
    cudart::MemPools::get().freed(addr(ptr));  // stream-ordered allocations count in their pool
    rt.unmap_managed(addr(ptr));
    if (rt.stopped()) return cudaSuccess;
    return rt.call([&](workloads::HostApi& h) { h.free(addr(ptr)); });
}

cudaError_t cudaMallocHost(void** ptr, size_t bytes) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!ptr) return rt.set_error(cudaErrorInvalidValue);
    // Pinned memory is ordinary host memory here; the PCIe model times every copy the same way.
    void* p = std::aligned_alloc(4096, (std::max<size_t>(bytes, 1) + 4095) / 4096 * 4096);
    if (!p) return rt.set_error(cudaErrorMemoryAllocation);
    rt.host_allocations()[p] = bytes;
    *ptr = p;
    return cudaSuccess;
}

/// cudaHostAllocMapped: the kernels may dereference the memory. It is allocated like managed
/// memory (the program and the simulated GPU see it at one address) but not listed as device
/// memory, so that copies from and to it cross the simulated PCIe as from any host memory.
constexpr unsigned kHostAllocMapped = 2;

cudaError_t cudaHostAlloc(void** ptr, size_t bytes, unsigned flags) {
    if (!(flags & kHostAllocMapped)) return cudaMallocHost(ptr, bytes);
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!ptr) return rt.set_error(cudaErrorInvalidValue);
    *ptr = nullptr;
    if (bytes > (uint64_t{1} << 38)) return rt.set_error(cudaErrorMemoryAllocation);
    const uint64_t n = std::max<uint64_t>(bytes, 1);
    workloads::DevPtr d = 0;
    if (cudaError_t e = rt.call([&](workloads::HostApi& h) { d = h.malloc_managed(n); }, cudaErrorMemoryAllocation))
        return e;
    if (!rt.map_managed(d, n)) {
        rt.call([&](workloads::HostApi& h) { h.free(d); });
        return rt.set_error(cudaErrorMemoryAllocation);
    }
    rt.mapped_host_allocations()[d] = n;
    *ptr = reinterpret_cast<void*>(d);
    return cudaSuccess;
}

cudaError_t cudaHostGetDevicePointer(void** device, void* host, unsigned flags) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!device || flags != 0) return rt.set_error(cudaErrorInvalidValue);
    const uint64_t p = addr(host);
    auto& m = rt.mapped_host_allocations();
    if (auto it = m.upper_bound(p); it != m.begin() && p - std::prev(it)->first < std::prev(it)->second) {
        *device = host;  // unified addressing: the same address
        return cudaSuccess;
    }
    Runtime::say("cudaHostGetDevicePointer: kernels reach only host memory allocated with cudaHostAlloc(..., "
                 "cudaHostAllocMapped) in stacksim");
    return rt.set_error(cudaErrorNotSupported);
}

/// Pins program memory: it is then pinned memory for the copies (asynchronous copies overlap
/// other streams). Kernels do not reach it (cudaHostGetDevicePointer says so), whatever the flags.
cudaError_t cudaHostRegister(void* ptr, size_t bytes, unsigned flags) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    (void)flags;  // portable, mapped, I/O memory and read-only are not modelled
    if (!ptr || bytes == 0) return rt.set_error(cudaErrorInvalidValue);
    auto& reg = rt.registered_host();
    const auto p = reinterpret_cast<uintptr_t>(ptr);
    // A range that overlaps one registered before: CUDA's cudaErrorHostMemoryAlreadyRegistered.
    auto next = reg.lower_bound(ptr);
    if (next != reg.end() && reinterpret_cast<uintptr_t>(next->first) < p + bytes)
        return rt.set_error(cudaErrorHostMemoryAlreadyRegistered);
    if (next != reg.begin() && reinterpret_cast<uintptr_t>(std::prev(next)->first) + std::prev(next)->second > p)
        return rt.set_error(cudaErrorHostMemoryAlreadyRegistered);
    reg[ptr] = bytes;
    return cudaSuccess;
}

cudaError_t cudaHostUnregister(void* ptr) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (rt.registered_host().erase(ptr) == 0) return rt.set_error(cudaErrorHostMemoryNotRegistered);
    return cudaSuccess;
}

cudaError_t cudaHostGetFlags(unsigned* flags, void* ptr) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    const bool mapped = rt.mapped_host_allocations().count(addr(ptr)) != 0;
    if (!flags || (!mapped && !rt.host_allocations().count(ptr))) return rt.set_error(cudaErrorInvalidValue);
    *flags = mapped ? kHostAllocMapped : 0;  // cudaHostAllocPortable and WriteCombined are not modelled
    return cudaSuccess;
}

cudaError_t cudaFreeHost(void* ptr) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!ptr) return cudaSuccess;
    if (auto m = rt.mapped_host_allocations().find(addr(ptr)); m != rt.mapped_host_allocations().end()) {
        rt.mapped_host_allocations().erase(m);
        rt.unmap_managed(addr(ptr));
        if (rt.stopped()) return cudaSuccess;
        return rt.call([&](workloads::HostApi& h) { h.free(addr(ptr)); });
    }
    auto it = rt.host_allocations().find(ptr);
    if (it == rt.host_allocations().end()) return rt.set_error(cudaErrorInvalidValue);
    rt.host_allocations().erase(it);
    std::free(ptr);
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, int kind) {
    if (cudaError_t e = unsafe_during_capture(true)) return e;
    return copy(dst, src, bytes, kind);
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, int kind, cudaStream_t stream) {
    {
        auto& rt = Runtime::get();
        auto lk = rt.lock();
        cudart::StreamObject* so = nullptr;
        bool captured = false;
        if (cudaError_t e = async_target(rt, stream, &so, &captured)) return e;
        if (bytes == 0) return cudaSuccess;
        if (!dst || !src) return rt.set_error(cudaErrorInvalidValue);
        int k = kind;
        if (cudaError_t e = resolve(rt, dst, src, bytes, k)) return rt.set_error(e);
        if (captured) return capture_copy(so, cudart::MemcpyOp{dst, src, bytes, bytes, bytes, 1, kind});
        // Pinned host memory and device memory the program does not mirror: a stream command
        // that overlaps other streams' work. Anything else is the synchronous copy (pageable
        // memory is staged by CUDA too; docs/cuda_programs.md).
        const bool async = (k == cudaMemcpyHostToDevice && rt.is_pinned_range(src, bytes) &&
                            !rt.is_mirrored(addr(dst), bytes)) ||
                           (k == cudaMemcpyDeviceToHost && rt.is_pinned_range(dst, bytes) &&
                            !rt.is_mirrored(addr(src), bytes)) ||
                           (k == cudaMemcpyDeviceToDevice && !rt.is_mirrored(addr(dst), bytes) &&
                            !rt.is_mirrored(addr(src), bytes));
        if (async)
            return cudart::on_stream(rt, so, [&](workloads::HostApi& h) {
                if (k == cudaMemcpyHostToDevice) h.memcpy_h2d_async(addr(dst), src, bytes);
                else if (k == cudaMemcpyDeviceToHost) h.memcpy_d2h_async(dst, addr(src), bytes);
                else h.memcpy_d2d_async(addr(dst), addr(src), bytes);
            });
    }
    return copy(dst, src, bytes, kind);
}

cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                         int kind) {
    if (cudaError_t e = unsafe_during_capture(true)) return e;
    return copy_2d(dst, dpitch, src, spitch, width, height, kind);
}

cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                              int kind, cudaStream_t stream) {
    {
        auto& rt = Runtime::get();
        auto lk = rt.lock();
        cudart::StreamObject* so = nullptr;
        bool captured = false;
        if (cudaError_t e = async_target(rt, stream, &so, &captured)) return e;
        if (captured) {
            if (width == 0 || height == 0) return cudaSuccess;
            if (width > dpitch || width > spitch) return rt.set_error(cudaErrorInvalidPitchValue);
            if (!dst || !src || kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
                return rt.set_error(cudaErrorInvalidValue);
            return capture_copy(so, cudart::MemcpyOp{dst, src, dpitch, spitch, width, height, kind});
        }
    }
    return copy_2d(dst, dpitch, src, spitch, width, height, kind);
}

cudaError_t cudaMemset(void* dst, int value, size_t bytes) {
    if (cudaError_t e = unsafe_during_capture(true)) return e;
    return set_2d(dst, bytes, value, bytes, 1);
}

cudaError_t cudaMemsetAsync(void* dst, int value, size_t bytes, cudaStream_t stream) {
    return set_async(dst, bytes, value, bytes, 1, stream);
}

cudaError_t cudaMemset2D(void* dst, size_t pitch, int value, size_t width, size_t height) {
    if (cudaError_t e = unsafe_during_capture(true)) return e;
    return set_2d(dst, pitch, value, width, height);
}

cudaError_t cudaMemset2DAsync(void* dst, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream) {
    return set_async(dst, pitch, value, width, height, stream);
}

/// Stream-ordered allocation: allocated at once; freed once the stream's earlier work is done.
cudaError_t cudaMallocAsync(void** ptr, size_t bytes, cudaStream_t stream) {
    {
        auto& rt = Runtime::get();
        auto lk = rt.lock();
        cudart::StreamObject* so = nullptr;
        bool captured = false;
        if (cudaError_t e = async_target(rt, stream, &so, &captured)) return e;
        if (captured) return rt.set_error(cudart::StreamCapture::get().refuse(so, "cudaMallocAsync"));
    }
    const cudaError_t e = cudaMalloc(ptr, bytes);
    if (e == cudaSuccess && *ptr) {
        auto& rt = Runtime::get();
        auto lk = rt.lock();
        cudart::MemPools::get().allocated(cudart::MemPools::get().current(), addr(*ptr), bytes);
    }
    return e;
}

cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream) {
    {
        auto& rt = Runtime::get();
        auto lk = rt.lock();
        cudart::StreamObject* so = nullptr;
        bool captured = false;
        if (cudaError_t e = async_target(rt, stream, &so, &captured)) return e;
        if (captured) return rt.set_error(cudart::StreamCapture::get().refuse(so, "cudaFreeAsync"));
    }
    if (cudaError_t e = cudaStreamSynchronize(stream)) return e;
    return cudaFree(ptr);
}

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* a, const void* ptr) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!a) return rt.set_error(cudaErrorInvalidValue);
    *a = cudaPointerAttributes{};
    a->device = -2;  // CUDA's value for unregistered memory
    const uint64_t p = addr(ptr);
    auto& dev = rt.device_allocations();
    if (auto it = dev.upper_bound(p); it != dev.begin() && p - std::prev(it)->first < std::prev(it)->second) {
        const bool managed = rt.is_managed(std::prev(it)->first);
        a->type = managed ? cudaMemoryTypeManaged : cudaMemoryTypeDevice;
        a->device = 0;
        a->devicePointer = const_cast<void*>(ptr);
        a->hostPointer = managed ? const_cast<void*>(ptr) : nullptr;
        return cudaSuccess;
    }
    auto& mapped = rt.mapped_host_allocations();
    if (auto it = mapped.upper_bound(p); it != mapped.begin() && p - std::prev(it)->first < std::prev(it)->second) {
        a->type = cudaMemoryTypeHost;
        a->device = 0;
        a->devicePointer = a->hostPointer = const_cast<void*>(ptr);
        return cudaSuccess;
    }
    auto& host = rt.host_allocations();
    if (auto it = host.upper_bound(ptr); it != host.begin()) {
        const auto* base = static_cast<const char*>(std::prev(it)->first);
        if (static_cast<const char*>(ptr) >= base && static_cast<size_t>(static_cast<const char*>(ptr) - base) <
                                                         std::max<size_t>(std::prev(it)->second, 1)) {
            a->type = cudaMemoryTypeHost;
            a->device = 0;
            a->hostPointer = const_cast<void*>(ptr);
            return cudaSuccess;  // pinned memory is not mapped into the device's address space
        }
    }
    a->type = cudaMemoryTypeUnregistered;
    return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    uint64_t used = 0;
    for (const auto& [p, n] : rt.device_allocations()) used += n;
    const uint64_t total = cudart::kDeviceMemoryBytes;
    if (free_bytes) *free_bytes = used < total ? total - used : 0;
    if (total_bytes) *total_bytes = total;
    return cudaSuccess;
}

}  // extern "C"
