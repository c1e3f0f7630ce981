// SPDX-License-Identifier: Apache-2.0
// The host program's view of the GPU: allocate, copy, launch. Implemented by the simulator.
#pragma once
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <string>
#include <vector>

#include "core/texture.h"

namespace stacksim::core {
struct TraceKernel;
}

namespace stacksim::workloads {

/// A device (GPU global memory) address.
using DevPtr = uint64_t;

struct Dim3 {
    uint32_t x = 1, y = 1, z = 1;
    uint64_t count() const { return uint64_t{x} * y * z; }
};

/// Kernel arguments in declaration order; packed to the kernel's .param layout at launch
/// (each argument's size must match its .param's size).
class LaunchArgs {
public:
    struct Arg {
        uint8_t bytes;
        uint64_t bits;
        std::vector<uint8_t> data;  ///< an aggregate's bytes (a struct passed by value; bytes is 0)
        uint32_t size() const { return data.empty() ? bytes : static_cast<uint32_t>(data.size()); }
        const void* value() const { return data.empty() ? static_cast<const void*>(&bits) : data.data(); }
    };
    LaunchArgs& ptr(DevPtr p) { return push(8, p); }
    LaunchArgs& u64(uint64_t v) { return push(8, v); }
    LaunchArgs& u32(uint32_t v) { return push(4, v); }
    LaunchArgs& i32(int32_t v) { return push(4, static_cast<uint32_t>(v)); }
    LaunchArgs& f32(float v) {
        uint32_t b;
        std::memcpy(&b, &v, 4);
        return push(4, b);
    }
    LaunchArgs& f64(double v) {
        uint64_t b;
        std::memcpy(&b, &v, 8);
        return push(8, b);
    }
    /// An argument of `bytes` (1, 2, 4 or 8) bytes, its value in the low bytes of `bits`.
    LaunchArgs& raw(uint8_t bytes, uint64_t bits) { return push(bytes, bits); }
    /// An aggregate argument (a struct passed by value) of `bytes` bytes copied from `data`.
    LaunchArgs& aggregate(const void* data, uint32_t bytes) {
        const auto* p = static_cast<const uint8_t*>(data);
        m_args.push_back({0, 0, std::vector<uint8_t>(p, p + bytes)});
        return *this;
    }
    const std::vector<Arg>& args() const { return m_args; }

private:
    LaunchArgs& push(uint8_t n, uint64_t bits) {
        m_args.push_back({n, bits, {}});
        return *this;
    }
    std::vector<Arg> m_args;
};

/// A stream of an application (0: its default stream) and an event.
using StreamId = uint32_t;
using EventId = uint32_t;

/// Host calls, as a CUDA host program makes them, called from the simulated host thread.
/// Launches are asynchronous: they go to the current stream (set_stream) and reach the GPU
/// after the launch latency; kernels of one stream run in order. Copies, memset and
/// malloc_managed first wait for every kernel the application launched (the legacy default
/// stream's rule), so a program that launches and then copies results back sees them.
class HostApi {
public:
    virtual ~HostApi() = default;
    /// Allocates `bytes` of device memory (256-byte aligned). With uvm.mode = managed every
    /// allocation is managed (demand paged), so library kernels run unchanged in each mode, and
    /// page aligned (its own pages) unless uvm.page_aligned_allocations is false.
    virtual DevPtr malloc(uint64_t bytes) = 0;
    /// Allocates `bytes` of managed memory (cudaMallocManaged): demand paged by the GMMU in
    /// device and managed modes, free of transfer cost in ideal mode, plain memory when unified
    /// memory is off. Page aligned. The default is malloc().
    virtual DevPtr malloc_managed(uint64_t bytes) { return malloc(bytes); }
    virtual void free(DevPtr p) = 0;
    virtual void memcpy_h2d(DevPtr dst, const void* src, uint64_t bytes) = 0;
    virtual void memcpy_d2h(void* dst, DevPtr src, uint64_t bytes) = 0;
    virtual void memset(DevPtr dst, uint8_t value, uint64_t bytes) = 0;
    /// Copies device memory to device memory (no PCIe transfer where the simulator implements it).
    virtual void memcpy_d2d(DevPtr dst, DevPtr src, uint64_t bytes) {
        std::vector<uint8_t> tmp(bytes);
        memcpy_d2h(tmp.data(), src, bytes);
        memcpy_h2d(dst, tmp.data(), bytes);
    }
    /// Asynchronous copies and memset on the current stream (set_stream), as cudaMemcpyAsync
    /// with pinned host memory: the command runs when its stream reaches it, while other
    /// streams' kernels and copies go on, and its bytes move when it completes, so the host
    /// buffer must stay valid and unchanged until the stream has passed it. Hosts that do not
    /// model them, and copies involving managed memory, do the synchronous call (the default).
    virtual void memcpy_h2d_async(DevPtr dst, const void* src, uint64_t bytes) { memcpy_h2d(dst, src, bytes); }
    virtual void memcpy_d2h_async(void* dst, DevPtr src, uint64_t bytes) { memcpy_d2h(dst, src, bytes); }
    virtual void memcpy_d2d_async(DevPtr dst, DevPtr src, uint64_t bytes) { memcpy_d2d(dst, src, bytes); }
    virtual void memset_async(DevPtr dst, uint8_t value, uint64_t bytes) { memset(dst, value, bytes); }
    /// cudaMemPrefetchAsync to the GPU: managed pages of [p, p + bytes) start migrating now,
    /// without waiting (a kernel touching a page still in flight waits for it); a hint that
    /// hosts without demand paging ignore (the default).
    virtual void prefetch_to_device(DevPtr p, uint64_t bytes) { (void)p, (void)bytes; }
    /// Launches `entry` from the library file `ptx_file` (e.g. "vecadd.ptx") and waits for it.
    /// `dynamic_shared_bytes` sizes extern .shared arrays.
    virtual void launch(const std::string& ptx_file, const std::string& entry, Dim3 grid,
                        Dim3 block, const LaunchArgs& args, uint32_t dynamic_shared_bytes = 0) = 0;

    /// Launches `entry` of PTX given as text (e.g. generated); `source_name` names it in errors
    /// and caches the parse (same name = same text).
    virtual void launch_ptx_source(const std::string& source_name, const std::string& ptx_text,
                                   const std::string& entry, Dim3 grid, Dim3 block,
                                   const LaunchArgs& args, uint32_t dynamic_shared_bytes = 0) = 0;
    /// Loads PTX text as module `source_name` without launching (cuModuleLoadData): its
    /// variables can then be written before the first launch_ptx_source of that name.
    virtual void load_ptx_source(const std::string& source_name, const std::string& ptx_text) {
        (void)ptx_text;
        throw std::runtime_error(source_name + ": this host cannot load modules");
    }
    /// Device address of the module-scope variable `symbol` (a `__device__` or `__constant__`
    /// variable, as named in the PTX: mangled for C++ names) of `module`, a library PTX file or a
    /// source name given to launch_ptx_source (cudaGetSymbolAddress). The module is loaded if
    /// needed. Throws on an unknown module or symbol.
    virtual DevPtr symbol_address(const std::string& module, const std::string& symbol) {
        return symbol_range(module, symbol).first;
    }
    /// Copies `bytes` from `src` into `symbol` at `offset` (cudaMemcpyToSymbol).
    virtual void copy_to_symbol(const std::string& module, const std::string& symbol, const void* src,
                                uint64_t bytes, uint64_t offset = 0) {
        memcpy_h2d(checked_symbol(module, symbol, bytes, offset), src, bytes);
    }
    /// Copies `bytes` of `symbol` from `offset` into `dst` (cudaMemcpyFromSymbol).
    virtual void copy_from_symbol(void* dst, const std::string& module, const std::string& symbol,
                                  uint64_t bytes, uint64_t offset = 0) {
        memcpy_d2h(dst, checked_symbol(module, symbol, bytes, offset), bytes);
    }
    /// Address and size in bytes of `symbol` (cudaGetSymbolAddress, cudaGetSymbolSize).
    /// The default has no modules and throws.
    virtual std::pair<DevPtr, uint64_t> symbol_range(const std::string& module, const std::string& symbol) {
        throw std::runtime_error(module + ": this host has no module-scope variables ('" + symbol + "')");
    }
    /// Launches from now on are cooperative (cudaLaunchCooperativeKernel) while `on`: every CTA
    /// of the grid must be resident at once (an InputError otherwise, as CUDA's
    /// cudaErrorCooperativeLaunchTooLarge), and the kernel may synchronise the whole grid
    /// (cooperative_groups::this_grid().sync()). Hosts without support throw.
    virtual void set_cooperative(bool on) {
        if (on) throw std::runtime_error("this host does not support cooperative launches");
    }
    /// cudaCreateTextureObject: registers texture object `desc` (its texels in device memory)
    /// and returns its handle, the non-zero value a kernel's cudaTextureObject_t parameter
    /// carries. Throws std::invalid_argument naming the field of a bad descriptor.
    virtual uint64_t create_texture_object(const core::TextureDesc& desc) {
        (void)desc;
        throw std::runtime_error("this host does not support texture objects");
    }
    /// cudaDestroyTextureObject: the handle becomes invalid (a later tex with it is an error).
    virtual void destroy_texture_object(uint64_t handle) { (void)handle; }
    /// Runs a traced kernel (timing only: no functional effects).
    virtual void launch_trace(const core::TraceKernel& kernel) = 0;

    /// A new stream of this application.
    virtual StreamId stream_create() { return 0; }
    /// Launches from now on go to `stream`.
    virtual void set_stream(StreamId stream) { (void)stream; }
    /// An event recorded when `stream` reaches this point.
    virtual EventId event_record(StreamId stream) {
        (void)stream;
        return 0;
    }
    /// Later commands of `stream` wait until `event` has been recorded.
    virtual void stream_wait_event(StreamId stream, EventId event) { (void)stream, (void)event; }
    /// Functional access to device memory, taking no time and migrating nothing: what a native
    /// program's own loads and stores to managed memory do, which the simulator does not see.
    virtual void peek(void* dst, DevPtr src, uint64_t bytes) { memcpy_d2h(dst, src, bytes); }
    virtual void poke(DevPtr dst, const void* src, uint64_t bytes) { memcpy_h2d(dst, src, bytes); }
    /// True when nothing the application launched is queued or running.
    virtual bool device_idle() { return true; }
    /// True once `event` has been recorded (does not block).
    virtual bool event_done(EventId event) {
        (void)event;
        return true;
    }
    /// Simulated time at which `event` was recorded, ps (0 until then).
    virtual uint64_t event_time_ps(EventId event) {
        (void)event;
        return 0;
    }
    /// True when everything launched on `stream` has finished (does not block).
    virtual bool stream_idle(StreamId stream) {
        (void)stream;
        return true;
    }
    /// Blocks the host until `event` has been recorded.
    virtual void event_synchronize(EventId event) { (void)event; }
    /// Blocks the host until everything launched on `stream` has finished.
    virtual void stream_synchronize(StreamId stream) { (void)stream; }
    /// Blocks the host until everything the application launched has finished.
    virtual void device_synchronize() {}
    /// Launch latency of the following launches, ns (negative: the application's default).
    virtual void set_launch_latency_ns(double ns) { (void)ns; }

    /// The address of [offset, offset + bytes) of `symbol`; throws when the range exceeds it.
    DevPtr checked_symbol(const std::string& module, const std::string& symbol, uint64_t bytes, uint64_t offset) {
        const auto [addr, size] = symbol_range(module, symbol);
        if (offset > size || size - offset < bytes)
            throw std::runtime_error(module + ": copy of " + std::to_string(bytes) + " bytes at offset " +
                                     std::to_string(offset) + " exceeds symbol '" + symbol + "' (" +
                                     std::to_string(size) + " bytes)");
        return addr + offset;
    }
    template <typename T> DevPtr upload(const std::vector<T>& host) {
        DevPtr p = malloc(host.size() * sizeof(T));
        memcpy_h2d(p, host.data(), host.size() * sizeof(T));
        return p;
    }
    template <typename T> void download(std::vector<T>& host, DevPtr src) {
        memcpy_d2h(host.data(), src, host.size() * sizeof(T));
    }
    /// Resizes `host` to `count` elements and downloads them from `src`.
    template <typename T> void download(std::vector<T>& host, DevPtr src, size_t count) {
        host.assign(count, T{});
        download(host, src);
    }
};

}  // namespace stacksim::workloads
