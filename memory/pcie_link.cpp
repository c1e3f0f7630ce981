// SPDX-License-Identifier: Apache-2.0
// The host-GPU PCIe link with its DMA (copy) engines: timed copies for the host thread.
#include "memory/pcie_link.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace stacksim::memory {

namespace {
constexpr uint64_t kNever = ~uint64_t{0};
// A completed copy's event is reused only after this many later completions, so a caller
// holding a stale reference is very unlikely to see another copy's notification.
constexpr size_t kEventReuseDelay = 16;

uint64_t now_ps() { return sc_core::sc_time_stamp().value(); }
uint64_t ns_to_ps(double ns) { return static_cast<uint64_t>(std::llround(ns * 1000.0)); }
// GB/s (10^9 B/s) to bytes per ps (10^12 ps/s).
double bytes_per_ps(double gbps) { return gbps * 1e-3; }
}  // namespace

PcieLink::PcieLink(sc_core::sc_module_name name, const PcieConfig& cfg, HostMemory& host,
                   sim::StatRegistry& stats)
    : sc_module(name), m_cfg(cfg), m_host(host) {
    m_cfg.validate();
    m_rate_gbps = {m_cfg.h2d_rate_gbps(), m_cfg.d2h_rate_gbps()};
    m_overhead_ps = ns_to_ps(m_cfg.per_transfer_overhead_ns);
    m_latency_ps = ns_to_ps(m_cfg.latency_ns);

    SC_METHOD(on_wake);
    sensitive << m_wake;
    dont_initialize();

    sim::StatGroup g(stats, std::string(this->name()));
    for (int d = 0; d < 2; ++d) {
        const std::string p = d == 0 ? "h2d." : "d2h.";
        const char* what = d == 0 ? "host-to-device" : "device-to-host";
        DirStats& s = m_dir[d];
        g.add(p + "transfers", s.transfers, std::string("completed ") + what + " copies", "copies");
        g.add(p + "bytes", s.bytes, std::string("bytes of completed ") + what + " copies", "bytes");
        g.add(p + "active_ps", s.active_ps, "sum over copies of engine start to completion", "ps");
        g.add(p + "copy_time", s.copy_time_ns, "copy time from request to completion (incl. queueing)", "ns");
        g.add_formula(p + "bandwidth_gbps", [&s] {
            double t = static_cast<double>(s.active_ps.value());
            return t > 0 ? static_cast<double>(s.bytes.value()) / t * 1e3 : 0.0;
        }, "achieved bandwidth: bytes / active_ps (includes overhead and latency)", "GB/s");
    }
    for (unsigned e = 0; e < m_cfg.dma_engines; ++e) {
        const std::string p = "engine" + std::to_string(e) + ".";
        Engine& eng = m_engines[e];
        g.add(p + "busy_ps", eng.busy_ps, "time the DMA engine held a copy (setup to completion)", "ps");
        g.add_formula(p + "utilization", [&eng] {
            uint64_t t = now_ps();
            return t ? static_cast<double>(eng.busy_ps.value()) / static_cast<double>(t) : 0.0;
        }, "busy_ps / simulated time", "fraction");
    }
    g.add("overlap_ps", m_overlap_ps, "time both DMA engines held a copy at once", "ps");
}

uint64_t PcieLink::uncontended_ps(Direction d, uint64_t bytes) const {
    double rate = bytes_per_ps(std::min(rate_gbps(d), m_host.bandwidth_gbps()));
    auto data = static_cast<uint64_t>(std::ceil(static_cast<double>(bytes) / rate));
    return m_overhead_ps + m_latency_ps + data;
}

void PcieLink::copy(Direction d, uint64_t bytes) { sc_core::wait(start_copy(d, bytes)); }

sc_core::sc_event& PcieLink::start_copy(Direction d, uint64_t bytes, uint64_t* done_ps, double setup_ns,
                                        bool pipelined) {
    uint64_t now = now_ps();
    account(now);
    Transfer t;
    t.dir = d;
    t.bytes = bytes;
    t.queued_at = now;
    t.setup_ps = setup_ns < 0 ? m_overhead_ps : ns_to_ps(setup_ns);
    t.pipelined = pipelined;
    t.done = acquire_event();
    t.done_ps = done_ps;
    if (done_ps) *done_ps = kNever;
    engine_for(d).queue.push_back(t);
    // The link's process starts it (if its engine is free) in the next delta cycle, at the
    // same time; the caller is waiting by then, so the completion cannot be missed.
    m_wake.cancel();
    m_wake.notify(sc_core::SC_ZERO_TIME);
    return *t.done;
}

sc_core::sc_event* PcieLink::acquire_event() {
    if (m_free.size() > kEventReuseDelay) {
        sc_core::sc_event* e = m_free.front();
        m_free.pop_front();
        return e;
    }
    m_events.push_back(std::make_unique<sc_core::sc_event>());
    return m_events.back().get();
}

void PcieLink::on_wake() {
    ++m_wakeups;
    uint64_t now = now_ps();
    account(now);
    bool changed = true;
    while (changed) {
        changed = false;
        for (unsigned e = 0; e < m_cfg.dma_engines; ++e) changed |= step(m_engines[e], now);
        for (size_t i = 0; i < m_flying.size();) {
            if (m_flying[i].phase_end > now) {
                ++i;
                continue;
            }
            Transfer t = m_flying[i];
            m_flying.erase(m_flying.begin() + static_cast<std::ptrdiff_t>(i));
            finish(t, now);
            changed = true;
        }
    }
    reshare();
    reschedule(now);
}

void PcieLink::account(uint64_t now) {
    if (now <= m_last) return;
    uint64_t elapsed = now - m_last;
    m_last = now;
    unsigned busy = 0;
    for (unsigned e = 0; e < m_cfg.dma_engines; ++e) {
        Engine& eng = m_engines[e];
        if (eng.queue.empty() || eng.queue.front().phase == Phase::Queued) continue;
        ++busy;
        eng.busy_ps += elapsed;
        Transfer& t = eng.queue.front();
        if (t.phase == Phase::Data) t.remaining = std::max(0.0, t.remaining - t.rate * static_cast<double>(elapsed));
    }
    if (busy == 2) m_overlap_ps += elapsed;
}

// Moves the engine's front copy on by one phase if its current phase has ended at `now`.
bool PcieLink::step(Engine& e, uint64_t now) {
    if (e.queue.empty()) return false;
    Transfer& t = e.queue.front();
    switch (t.phase) {
    case Phase::Queued:
        t.phase = Phase::Setup;
        t.started_at = now;
        t.phase_end = now + t.setup_ps;
        return true;
    case Phase::Setup:
        if (t.phase_end > now) return false;
        if (t.bytes > 0) {
            t.phase = Phase::Data;
            t.remaining = static_cast<double>(t.bytes);
            t.rate = 0;  // set by reshare()
        } else {
            t.phase = Phase::Flight;
            t.phase_end = now + m_latency_ps;
        }
        return true;
    case Phase::Data:
        // Done when less than half a picosecond of data is left (rounding of event times).
        if (t.rate <= 0 || t.remaining > t.rate * 0.5) return false;
        t.phase = Phase::Flight;
        t.phase_end = now + m_latency_ps;
        if (t.dir == Direction::H2D)
            m_host.record_read(t.bytes);
        else
            m_host.record_write(t.bytes);
        if (t.pipelined) {  // the engine goes on with its next copy during the flight
            m_flying.push_back(t);
            e.queue.pop_front();
        }
        return true;
    case Phase::Flight:
        if (t.phase_end > now) return false;
        complete(e, now);
        return true;
    }
    return false;
}

void PcieLink::complete(Engine& e, uint64_t now) {
    Transfer t = e.queue.front();
    e.queue.pop_front();
    finish(t, now);
}

void PcieLink::finish(const Transfer& t, uint64_t now) {
    DirStats& s = m_dir[static_cast<int>(t.dir)];
    ++s.transfers;
    s.bytes += t.bytes;
    s.active_ps += now - t.started_at;
    s.copy_time_ns.sample(static_cast<double>(now - t.queued_at) * 1e-3);
    if (t.done_ps) *t.done_ps = now;
    t.done->notify();
    m_free.push_back(t.done);
}

void PcieLink::reshare() {
    std::vector<Transfer*> active;
    std::vector<double> caps;
    for (unsigned e = 0; e < m_cfg.dma_engines; ++e) {
        Engine& eng = m_engines[e];
        if (eng.queue.empty() || eng.queue.front().phase != Phase::Data) continue;
        active.push_back(&eng.queue.front());
        caps.push_back(rate_gbps(eng.queue.front().dir));
    }
    std::vector<double> rates = m_host.share(caps);
    for (size_t i = 0; i < active.size(); ++i) active[i]->rate = bytes_per_ps(rates[i]);
}

void PcieLink::reschedule(uint64_t now) {
    uint64_t next = kNever;
    for (unsigned e = 0; e < m_cfg.dma_engines; ++e) {
        const Engine& eng = m_engines[e];
        if (eng.queue.empty()) continue;
        const Transfer& t = eng.queue.front();
        uint64_t at = t.phase == Phase::Data ? now + static_cast<uint64_t>(std::ceil(t.remaining / t.rate))
                                             : t.phase_end;
        next = std::min(next, at);
    }
    for (const Transfer& t : m_flying) next = std::min(next, t.phase_end);
    m_wake.cancel();
    if (next == kNever) return;  // idle: nothing scheduled until the next start_copy()
    m_wake.notify(next <= now ? sc_core::SC_ZERO_TIME : sc_core::sc_time::from_value(next - now));
}

}  // namespace stacksim::memory
