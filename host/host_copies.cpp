// SPDX-License-Identifier: Apache-2.0
// Asynchronous copies of a host program (cudaMemcpyAsync with pinned memory, cudaMemsetAsync):
// stream commands that cross the PCIe link while other streams' kernels and copies run.
#include <vector>

#include "host/host_program.h"

namespace stacksim::host {

namespace {
constexpr uint64_t kPending = UINT64_MAX;  // PcieLink::start_copy's done_ps until completion
}

void HostProgram::memcpy_h2d_async(workloads::DevPtr dst, const void* src, uint64_t bytes) {
    if (!m_device.plain_range(dst, bytes)) return memcpy_h2d(dst, src, bytes);  // managed, or an error
    AsyncCopy c;
    c.kind = AsyncCopy::Kind::H2D;
    c.dev = dst;
    c.host_src = src;
    c.bytes = bytes;
    enqueue_copy(c);
}

void HostProgram::memcpy_d2h_async(void* dst, workloads::DevPtr src, uint64_t bytes) {
    if (!m_device.plain_range(src, bytes)) return memcpy_d2h(dst, src, bytes);
    AsyncCopy c;
    c.kind = AsyncCopy::Kind::D2H;
    c.dev = src;
    c.host_dst = dst;
    c.bytes = bytes;
    enqueue_copy(c);
}

void HostProgram::memcpy_d2d_async(workloads::DevPtr dst, workloads::DevPtr src, uint64_t bytes) {
    if (!m_device.plain_range(dst, bytes) || !m_device.plain_range(src, bytes)) return memcpy_d2d(dst, src, bytes);
    AsyncCopy c;
    c.kind = AsyncCopy::Kind::D2D;
    c.dev = dst;
    c.dev_src = src;
    c.bytes = bytes;
    enqueue_copy(c);
}

void HostProgram::memset_async(workloads::DevPtr dst, uint8_t value, uint64_t bytes) {
    if (!m_device.plain_range(dst, bytes)) return memset(dst, value, bytes);
    AsyncCopy c;
    c.kind = AsyncCopy::Kind::Memset;
    c.dev = dst;
    c.value = value;
    c.bytes = bytes;
    enqueue_copy(c);
}

void HostProgram::enqueue_copy(const AsyncCopy& copy) {
    uint32_t slot;
    if (m_free_copy_slots.empty()) {
        slot = static_cast<uint32_t>(m_copies.size());
        m_copies.push_back(copy);
    } else {
        slot = m_free_copy_slots.back();
        m_free_copy_slots.pop_back();
        m_copies[slot] = copy;
    }
    m_copies[slot].stream = m_current;
    StreamCommand c;
    c.kind = StreamCommand::Kind::Copy;
    c.copy = slot;
    m_streams[m_current].commands.push_back(c);
    pump(m_current);
}

bool HostProgram::start_copy(uint32_t slot) {
    AsyncCopy& c = m_copies[slot];
    // Device-side copies and memsets take no simulated time, as their synchronous forms.
    if (c.kind == AsyncCopy::Kind::H2D || c.kind == AsyncCopy::Kind::D2H) {
        const auto dir = c.kind == AsyncCopy::Kind::H2D ? memory::Direction::H2D : memory::Direction::D2H;
        c.done = m_device.start_async_copy(dir, c.bytes, &c.done_ps);
        if (c.done) {
            m_copies_in_flight.push_back(slot);
            m_copy_started.notify(sc_core::SC_ZERO_TIME);
            return false;
        }
    }
    apply_copy(slot);
    return true;
}

void HostProgram::apply_copy(uint32_t slot) {
    const AsyncCopy& c = m_copies[slot];
    sim::SparseMemory& mem = m_device.device_memory();
    switch (c.kind) {
    case AsyncCopy::Kind::H2D: mem.write(c.dev, c.host_src, c.bytes); break;
    case AsyncCopy::Kind::D2H: mem.read(c.dev, c.host_dst, c.bytes); break;
    case AsyncCopy::Kind::D2D: {
        std::vector<uint8_t> tmp(c.bytes);
        mem.read(c.dev_src, tmp.data(), c.bytes);
        mem.write(c.dev, tmp.data(), c.bytes);
        break;
    }
    case AsyncCopy::Kind::Memset: mem.fill(c.dev, c.value, c.bytes); break;
    }
    m_free_copy_slots.push_back(slot);
}

void HostProgram::copy_waiter() {
    while (true) {
        // Completed transfers first (in start order), so a completion is never missed between
        // two waits; then wait for the next completion or a newly started copy.
        for (size_t i = 0; i < m_copies_in_flight.size();) {
            const uint32_t slot = m_copies_in_flight[i];
            if (m_copies[slot].done_ps == kPending) {
                ++i;
                continue;
            }
            m_copies_in_flight.erase(m_copies_in_flight.begin() + static_cast<std::ptrdiff_t>(i));
            const uint32_t id = m_copies[slot].stream;
            m_device.end_async_copy();
            apply_copy(slot);
            front_done(id);
        }
        sc_core::sc_event_or_list any;
        any |= m_copy_started;
        for (uint32_t slot : m_copies_in_flight) any |= *m_copies[slot].done;
        sc_core::wait(any);
    }
}

}  // namespace stacksim::host
