// SPDX-License-Identifier: Apache-2.0
// The simulated host CPU of one application: runs its host program on one SystemC thread.
#pragma once
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "core/kernel_launch.h"
#include "host/device_runtime.h"
#include "host/stream.h"
#include "sched/kernel_management_unit.h"
#include "workloads/host_api.h"
#include "workloads/workload.h"

namespace stacksim::host {

/// Whether an application's kernels may be flushed on preemption.
enum class Idempotence : uint8_t {
    Auto,  ///< as the analysis of the PTX or trace finds (core/idempotence.h)
    Yes,   ///< declared idempotent (the user knows better than the analysis)
    No,    ///< never flushed
};

/// How one application runs.
struct AppSettings {
    uint32_t index = 0;              ///< application number (records, stats)
    uint64_t start_ps = 0;           ///< simulated time its host program starts
    int priority = 0;                ///< of its kernels (larger may preempt smaller)
    uint64_t launch_latency_ps = 0;  ///< launch call -> the GPU's kernel pool
    Idempotence idempotent = Idempotence::Auto;
};

/// Implements the host API for one application: memory calls go to the shared DeviceRuntime;
/// launches go to the application's streams and reach the kernel management unit after the
/// launch latency, in stream order.
class HostProgram : public sc_core::sc_module, public workloads::HostApi {
public:
    SC_HAS_PROCESS(HostProgram);
    HostProgram(sc_core::sc_module_name name, workloads::Workload& workload, DeviceRuntime& device,
                sched::KernelManagementUnit& kmu, const AppSettings& settings);

    workloads::DevPtr malloc(uint64_t bytes) override { return m_device.malloc(bytes); }
    workloads::DevPtr malloc_managed(uint64_t bytes) override;
    void free(workloads::DevPtr p) override { m_device.free(p); }
    void memcpy_h2d(workloads::DevPtr dst, const void* src, uint64_t bytes) override;
    void memcpy_d2h(void* dst, workloads::DevPtr src, uint64_t bytes) override;
    void memset(workloads::DevPtr dst, uint8_t value, uint64_t bytes) override;
    void memcpy_d2d(workloads::DevPtr dst, workloads::DevPtr src, uint64_t bytes) override;
    // Asynchronous copies: stream commands (host/host_copies.cpp).
    void memcpy_h2d_async(workloads::DevPtr dst, const void* src, uint64_t bytes) override;
    void memcpy_d2h_async(void* dst, workloads::DevPtr src, uint64_t bytes) override;
    void memcpy_d2d_async(workloads::DevPtr dst, workloads::DevPtr src, uint64_t bytes) override;
    void memset_async(workloads::DevPtr dst, uint8_t value, uint64_t bytes) override;
    void prefetch_to_device(workloads::DevPtr p, uint64_t bytes) override { m_device.prefetch_to_device(p, bytes); }
    void launch(const std::string& ptx_file, const std::string& entry, workloads::Dim3 grid,
                workloads::Dim3 block, const workloads::LaunchArgs& args,
                uint32_t dynamic_shared_bytes) override;
    void launch_ptx_source(const std::string& source_name, const std::string& ptx_text,
                           const std::string& entry, workloads::Dim3 grid, workloads::Dim3 block,
                           const workloads::LaunchArgs& args, uint32_t dynamic_shared_bytes) override;
    void launch_trace(const core::TraceKernel& kernel) override;
    void load_ptx_source(const std::string& source_name, const std::string& ptx_text) override {
        m_device.load_source(source_name, ptx_text);
    }
    std::pair<workloads::DevPtr, uint64_t> symbol_range(const std::string& module, const std::string& symbol) override {
        return m_device.symbol(module, symbol);
    }
    workloads::StreamId stream_create() override;
    void set_stream(workloads::StreamId stream) override;
    workloads::EventId event_record(workloads::StreamId stream) override;
    void stream_wait_event(workloads::StreamId stream, workloads::EventId event) override;
    void event_synchronize(workloads::EventId event) override;
    bool event_done(workloads::EventId event) override;
    uint64_t event_time_ps(workloads::EventId event) override;
    bool stream_idle(workloads::StreamId stream) override;
    void peek(void* dst, workloads::DevPtr src, uint64_t bytes) override {
        m_device.device_memory().read(src, dst, bytes);
    }
    void poke(workloads::DevPtr dst, const void* src, uint64_t bytes) override {
        m_device.device_memory().write(dst, src, bytes);
    }
    bool device_idle() override { return all_idle(); }
    void stream_synchronize(workloads::StreamId stream) override;
    void device_synchronize() override;
    void set_launch_latency_ns(double ns) override;
    void set_cooperative(bool on) override { m_cooperative = on; }
    uint64_t create_texture_object(const core::TextureDesc& desc) override {
        return m_device.create_texture_object(desc);
    }
    void destroy_texture_object(uint64_t handle) override { m_device.destroy_texture_object(handle); }

    /// Called when the host program has ended (successfully or not).
    void on_finished(std::function<void()> f) { m_on_finished = std::move(f); }
    bool finished() const { return m_finished; }
    /// The exception the host program ended with, if any.
    std::exception_ptr failure() const { return m_failure; }
    const AppSettings& settings() const { return m_settings; }
    /// Simulated time of the host program's start and end, ps (turnaround = end - start).
    uint64_t start_ps() const { return m_settings.start_ps; }
    uint64_t end_ps() const { return m_end_ps; }
    workloads::Workload& workload() { return m_workload; }

private:
    /// An asynchronous copy or memset: the payload of a stream's Copy command.
    struct AsyncCopy {
        enum class Kind : uint8_t { H2D, D2H, D2D, Memset } kind = Kind::H2D;
        workloads::DevPtr dev = 0;      ///< the device side (destination, or source of D2H)
        workloads::DevPtr dev_src = 0;  ///< D2D: the source
        void* host_dst = nullptr;       ///< D2H
        const void* host_src = nullptr; ///< H2D
        uint64_t bytes = 0;
        uint8_t value = 0;              ///< Memset
        uint32_t stream = 0;
        sc_core::sc_event* done = nullptr;  ///< the link's completion event, while in flight
        uint64_t done_ps = 0;               ///< set by the link when the transfer completes
    };
    void enqueue_copy(const AsyncCopy& copy);
    /// Starts copy `slot` (its stream has reached it); true when it completed at once.
    bool start_copy(uint32_t slot);
    /// Moves copy `slot`'s bytes and frees the slot.
    void apply_copy(uint32_t slot);
    /// Completes the copies whose transfers have ended and waits for the next (SC_THREAD).
    void copy_waiter();

    void thread();
    void enqueue(std::unique_ptr<core::KernelLaunch> launch);
    /// Moves every stream as far as it can go.
    void pump();
    void pump(uint32_t stream);
    /// The front command of stream `id` (a kernel or a copy in flight) has completed: the
    /// stream goes on.
    void front_done(uint32_t id);
    Stream& stream(workloads::StreamId id, const char* what);
    bool all_idle() const;
    void wait_until(const std::function<bool()>& done);

    workloads::Workload& m_workload;
    DeviceRuntime& m_device;
    sched::KernelManagementUnit& m_kmu;
    AppSettings m_settings;
    uint64_t m_latency_ps;
    std::vector<Stream> m_streams;
    workloads::StreamId m_current = 0;
    bool m_cooperative = false;  ///< set_cooperative()
    std::vector<bool> m_events;  ///< recorded
    std::vector<uint64_t> m_event_ps;  ///< simulated time each event was recorded
    std::vector<std::unique_ptr<core::KernelLaunch>> m_launches;
    sc_core::sc_event_queue m_arrival;  ///< a launch reaches the kernel pool
    sc_core::sc_event m_changed;        ///< a command of some stream completed
    std::deque<AsyncCopy> m_copies;     ///< copy slots (stable: the link writes done_ps)
    std::vector<uint32_t> m_free_copy_slots;
    std::vector<uint32_t> m_copies_in_flight;  ///< slots, in the order their transfers started
    sc_core::sc_event m_copy_started;
    std::function<void()> m_on_finished;
    bool m_finished = false;
    std::exception_ptr m_failure;
    uint64_t m_end_ps = 0;
};

}  // namespace stacksim::host
