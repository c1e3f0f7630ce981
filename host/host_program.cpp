// SPDX-License-Identifier: Apache-2.0
// The simulated host CPU of one application: runs its host program on one SystemC thread.
#include "host/host_program.h"

#include <fmt/format.h>

#include <cmath>

#include "sim/error.h"
#include "sim/failure.h"

namespace stacksim::host {

HostProgram::HostProgram(sc_core::sc_module_name name, workloads::Workload& workload, DeviceRuntime& device,
                         sched::KernelManagementUnit& kmu, const AppSettings& settings)
    : sc_module(name), m_workload(workload), m_device(device), m_kmu(kmu), m_settings(settings),
      m_latency_ps(settings.launch_latency_ps), m_streams(1), m_arrival("arrival") {
    SC_THREAD(thread);
    SC_THREAD(copy_waiter);
    SC_METHOD(pump);
    sensitive << m_arrival;
    dont_initialize();
}

void HostProgram::thread() {
    if (m_settings.start_ps) sc_core::wait(sc_core::sc_time::from_value(m_settings.start_ps));
    try {
        m_workload.run(*this);
        device_synchronize();
        m_finished = true;
    } catch (...) {
        m_failure = std::current_exception();
    }
    m_end_ps = sc_core::sc_time_stamp().value();
    if (m_failure) {
        sim::record_failure(m_failure);  // stops the simulation
        return;
    }
    if (m_on_finished) m_on_finished();
}

workloads::DevPtr HostProgram::malloc_managed(uint64_t bytes) {
    device_synchronize();
    return m_device.malloc_managed(bytes);
}

void HostProgram::memcpy_h2d(workloads::DevPtr dst, const void* src, uint64_t bytes) {
    device_synchronize();
    m_device.memcpy_h2d(dst, src, bytes);
}

void HostProgram::memcpy_d2h(void* dst, workloads::DevPtr src, uint64_t bytes) {
    device_synchronize();
    m_device.memcpy_d2h(dst, src, bytes);
}

void HostProgram::memset(workloads::DevPtr dst, uint8_t value, uint64_t bytes) {
    device_synchronize();
    m_device.memset(dst, value, bytes);
}

void HostProgram::memcpy_d2d(workloads::DevPtr dst, workloads::DevPtr src, uint64_t bytes) {
    device_synchronize();
    m_device.memcpy_d2d(dst, src, bytes);
}

void HostProgram::launch(const std::string& ptx_file, const std::string& entry, workloads::Dim3 grid,
                         workloads::Dim3 block, const workloads::LaunchArgs& args, uint32_t dynamic_shared_bytes) {
    enqueue(m_device.make_launch(ptx_file, nullptr, entry, grid, block, args, dynamic_shared_bytes));
}

void HostProgram::launch_ptx_source(const std::string& source_name, const std::string& ptx_text,
                                    const std::string& entry, workloads::Dim3 grid, workloads::Dim3 block,
                                    const workloads::LaunchArgs& args, uint32_t dynamic_shared_bytes) {
    enqueue(m_device.make_launch(source_name, &ptx_text, entry, grid, block, args, dynamic_shared_bytes));
}

void HostProgram::launch_trace(const core::TraceKernel& kernel) { enqueue(m_device.make_trace_launch(kernel)); }

void HostProgram::enqueue(std::unique_ptr<core::KernelLaunch> launch) {
    if (m_cooperative) m_device.make_cooperative(*launch);
    launch->priority = m_settings.priority;
    if (m_settings.idempotent != Idempotence::Auto) launch->idempotent = m_settings.idempotent == Idempotence::Yes;
    StreamCommand c;
    c.kind = StreamCommand::Kind::Kernel;
    c.launch = launch.get();
    c.arrival_ps = sc_core::sc_time_stamp().value() + m_latency_ps;
    c.call_cycle = m_device.clock().cycle();
    m_launches.push_back(std::move(launch));
    m_streams[m_current].commands.push_back(c);
    m_kmu.launch_called(*c.launch);
    if (m_latency_ps) m_arrival.notify(sc_core::sc_time::from_value(m_latency_ps));
    pump(m_current);
}

void HostProgram::pump() {
    for (uint32_t s = 0; s < m_streams.size(); ++s) pump(s);
}

void HostProgram::pump(uint32_t id) {
    Stream& st = m_streams[id];
    while (!st.commands.empty() && !st.front_busy) {
        StreamCommand& c = st.commands.front();
        switch (c.kind) {
        case StreamCommand::Kind::RecordEvent:
            m_events[c.event] = true;
            m_event_ps[c.event] = sc_core::sc_time_stamp().value();
            st.commands.pop_front();
            m_changed.notify(sc_core::SC_ZERO_TIME);
            pump();  // streams waiting on this event may go on
            continue;
        case StreamCommand::Kind::WaitEvent:
            if (!m_events[c.event]) return;
            st.commands.pop_front();
            continue;
        case StreamCommand::Kind::Copy:
            if (!start_copy(c.copy)) {
                st.front_busy = true;  // copy_waiter completes it
                return;
            }
            st.commands.pop_front();
            m_changed.notify(sc_core::SC_ZERO_TIME);
            continue;
        case StreamCommand::Kind::Kernel: break;
        }
        if (c.arrival_ps > sc_core::sc_time_stamp().value()) return;  // m_arrival wakes us
        st.front_busy = true;
        core::KernelLaunch& launch = *c.launch;
        auto record = std::make_shared<KernelRecord>();
        record->name = launch.name();
        record->app = m_settings.index;
        record->stream = id;
        record->priority = launch.priority;
        record->call_cycle = c.call_cycle;
        record->ctas = launch.num_ctas();
        m_kmu.submit(
            launch, [this, record](core::KernelLaunch&) { record->start_cycle = m_device.clock().cycle(); },
            [this, record, id](core::KernelLaunch& l) {
                record->end_cycle = m_device.clock().cycle();
                record->warp_instructions = l.warp_instructions;
                record->ctas_completed = l.ctas_completed;
                record->cta_cycles = l.cta_cycles;
                record->issue_outcomes = l.outcomes;
                m_device.add_record(*record);
                front_done(id);
            });
        return;
    }
}

void HostProgram::front_done(uint32_t id) {
    Stream& s = m_streams[id];
    s.front_busy = false;
    s.commands.pop_front();
    m_changed.notify(sc_core::SC_ZERO_TIME);
    // The stream goes on in the next delta, outside the SM's tick, so the next kernel's CTAs
    // start with the next clock edge on every SM.
    m_arrival.notify(sc_core::SC_ZERO_TIME);
}

Stream& HostProgram::stream(workloads::StreamId id, const char* what) {
    if (id >= m_streams.size())
        throw sim::InputError(fmt::format("{}: stream {} does not exist (this application has {})", what, id,
                                          m_streams.size()));
    return m_streams[id];
}

workloads::StreamId HostProgram::stream_create() {
    m_streams.emplace_back();
    return static_cast<workloads::StreamId>(m_streams.size() - 1);
}

void HostProgram::set_stream(workloads::StreamId id) {
    stream(id, "set_stream");
    m_current = id;
}

workloads::EventId HostProgram::event_record(workloads::StreamId id) {
    Stream& st = stream(id, "event_record");
    const auto e = static_cast<workloads::EventId>(m_events.size());
    m_events.push_back(false);
    m_event_ps.push_back(0);
    StreamCommand c;
    c.kind = StreamCommand::Kind::RecordEvent;
    c.event = e;
    st.commands.push_back(c);
    pump(id);
    return e;
}

void HostProgram::stream_wait_event(workloads::StreamId id, workloads::EventId event) {
    Stream& st = stream(id, "stream_wait_event");
    if (event >= m_events.size()) throw sim::InputError(fmt::format("stream_wait_event: event {} does not exist", event));
    StreamCommand c;
    c.kind = StreamCommand::Kind::WaitEvent;
    c.event = event;
    st.commands.push_back(c);
    pump(id);
}

void HostProgram::wait_until(const std::function<bool()>& done) {
    while (!done()) sc_core::wait(m_changed);
}

void HostProgram::event_synchronize(workloads::EventId event) {
    if (event >= m_events.size()) throw sim::InputError(fmt::format("event_synchronize: event {} does not exist", event));
    wait_until([&] { return static_cast<bool>(m_events[event]); });
}

void HostProgram::stream_synchronize(workloads::StreamId id) {
    const Stream& st = stream(id, "stream_synchronize");
    wait_until([&] { return st.idle(); });
}

bool HostProgram::event_done(workloads::EventId event) {
    if (event >= m_events.size()) throw sim::InputError(fmt::format("event_done: event {} does not exist", event));
    return m_events[event];
}

uint64_t HostProgram::event_time_ps(workloads::EventId event) {
    if (event >= m_events.size()) throw sim::InputError(fmt::format("event_time_ps: event {} does not exist", event));
    return m_event_ps[event];
}

bool HostProgram::stream_idle(workloads::StreamId id) { return stream(id, "stream_idle").idle(); }

bool HostProgram::all_idle() const {
    for (const auto& s : m_streams)
        if (!s.idle()) return false;
    return true;
}

void HostProgram::device_synchronize() {
    wait_until([&] { return all_idle(); });
}

void HostProgram::set_launch_latency_ns(double ns) {
    if (!std::isfinite(ns) || ns > 1e9)
        throw sim::InputError(fmt::format("set_launch_latency_ns: {} is not a latency in 0..1e9 ns", ns));
    m_latency_ps = ns < 0 ? m_settings.launch_latency_ps : static_cast<uint64_t>(std::llround(ns * 1000.0));
}

}  // namespace stacksim::host
