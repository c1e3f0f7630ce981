// SPDX-License-Identifier: Apache-2.0
// The host program's view of the GPU: allocate, copy, launch. Implemented by the simulator.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

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
    const std::vector<Arg>& args() const { return m_args; }

private:
    LaunchArgs& push(uint8_t n, uint64_t bits) {
        m_args.push_back({n, bits});
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
    /// allocation is managed (demand paged), so library kernels run unchanged in each mode.
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
    /// Launches `entry` from the library file `ptx_file` (e.g. "vecadd.ptx") and waits for it.
    /// `dynamic_shared_bytes` sizes extern .shared arrays.
    virtual void launch(const std::string& ptx_file, const std::string& entry, Dim3 grid,
                        Dim3 block, const LaunchArgs& args, uint32_t dynamic_shared_bytes = 0) = 0;

    /// Launches `entry` of PTX given as text (e.g. generated); `source_name` names it in errors
    /// and caches the parse (same name = same text).
    virtual void launch_ptx_source(const std::string& source_name, const std::string& ptx_text,
                                   const std::string& entry, Dim3 grid, Dim3 block,
                                   const LaunchArgs& args, uint32_t dynamic_shared_bytes = 0) = 0;
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
