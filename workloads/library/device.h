// SPDX-License-Identifier: Apache-2.0
// The library's host-side helpers: launch shapes and a device view that tracks allocations.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "workloads/host_api.h"

namespace stacksim::workloads {

/// A launch's grid and block.
struct Shape {
    Dim3 grid;
    Dim3 block;
};

/// ceil(a / b) for b > 0.
inline uint32_t ceil_div(uint64_t a, uint64_t b) {
    return static_cast<uint32_t>((a + b - 1) / b);
}

/// One dimension: ceil(threads / block) CTAs of `block` threads.
inline Shape linear(uint64_t threads, uint32_t block) {
    return {Dim3{ceil_div(threads, block), 1, 1}, Dim3{block, 1, 1}};
}

/// Two dimensions: ceil(nx / bx) x ceil(ny / by) CTAs of bx x by threads.
inline Shape tiled(uint32_t nx, uint32_t ny, uint32_t bx, uint32_t by) {
    return {Dim3{ceil_div(nx, bx), ceil_div(ny, by), 1}, Dim3{bx, by, 1}};
}

/// A host program's view of the GPU: the HostApi calls a library workload makes, with the
/// sizes of its allocations remembered so that zeroing and downloading need only the pointer.
/// Every call maps to exactly one HostApi call (upload and zeros to two), in the same order.
class Device {
public:
    /// Launches go to entries of the library file `ptx_file` ("vecadd.ptx").
    Device(HostApi& host, std::string ptx_file) : m_host(host), m_ptx(std::move(ptx_file)) {}

    /// The underlying host API, for calls with no helper here.
    HostApi& host() { return m_host; }

    /// Allocates `count` elements of T (HostApi::malloc).
    template <typename T> DevPtr alloc(uint64_t count) { return malloc_bytes(count * sizeof(T)); }
    /// Allocates `count` elements of T and sets them to zero (malloc, memset).
    template <typename T> DevPtr zeros(uint64_t count) {
        const DevPtr p = alloc<T>(count);
        zero(p);
        return p;
    }
    /// Allocates data.size() elements and copies `data` in (malloc, memcpy_h2d).
    template <typename T> DevPtr upload(const std::vector<T>& data) {
        const DevPtr p = alloc<T>(data.size());
        m_host.memcpy_h2d(p, data.data(), data.size() * sizeof(T));
        return p;
    }
    /// Copies `count` elements from `src` to the start of allocation `dst` (memcpy_h2d).
    template <typename T> void copy_in(DevPtr dst, const T* src, uint64_t count) {
        m_host.memcpy_h2d(dst, src, count * sizeof(T));
    }
    /// Copies all of `src` to the start of allocation `dst` (memcpy_h2d).
    template <typename T> void copy_in(DevPtr dst, const std::vector<T>& src) { copy_in(dst, src.data(), src.size()); }
    /// Resizes `out` to the elements of the whole allocation `src` and copies them back
    /// (memcpy_d2h).
    template <typename T> void download(std::vector<T>& out, DevPtr src) {
        const uint64_t bytes = bytes_of(src);
        out.assign(bytes / sizeof(T), T{});
        m_host.memcpy_d2h(out.data(), src, bytes);
    }
    /// Sets every byte of allocation `p` to zero (memset).
    void zero(DevPtr p) { m_host.memset(p, 0, bytes_of(p)); }

    /// Launches `entry` of this device's PTX file and waits for it.
    void launch(const std::string& entry, const Shape& shape, const LaunchArgs& args) {
        m_host.launch(m_ptx, entry, shape.grid, shape.block, args);
    }

    /// Frees allocation `p` now.
    void free(DevPtr p);
    /// Frees every allocation not yet freed, in allocation order.
    void free_all();

private:
    DevPtr malloc_bytes(uint64_t bytes);
    /// Size of the allocation starting at `p`; throws std::logic_error if there is none.
    uint64_t bytes_of(DevPtr p) const;

    HostApi& m_host;
    std::string m_ptx;
    std::vector<std::pair<DevPtr, uint64_t>> m_allocs;  ///< live allocations, oldest first
};

}  // namespace stacksim::workloads
