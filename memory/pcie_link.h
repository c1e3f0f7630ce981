// SPDX-License-Identifier: Apache-2.0
// The host-GPU PCIe link with its DMA (copy) engines: timed copies for the host thread.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <memory>

#include <systemc>

#include "memory/host_memory.h"
#include "memory/pcie_config.h"
#include "sim/stats.h"

namespace stacksim::memory {

/// Direction of a copy. H2D reads host memory, D2H writes it.
enum class Direction { H2D = 0, D2H = 1 };

/// Copies between host memory and the GPU, timed; no data moves (the caller copies the bytes
/// functionally). Each DMA engine serves its copies one at a time in FIFO order; with two
/// engines, engine 0 serves H2D and engine 1 D2H, with one engine both share it.
/// A copy goes through three phases once its engine takes it:
///   setup  (per_transfer_overhead_ns) -> data (bytes at its rate) -> flight (latency_ns).
/// Its rate in the data phase is its direction's link rate, capped by its max-min fair share
/// of host memory bandwidth among all copies in their data phase; rates are recomputed
/// whenever a copy enters or leaves its data phase. Uncontended, a copy takes
///   overhead + latency + bytes / min(link rate, host bandwidth).
/// One SC_METHOD sleeps until the next phase change: no activity while idle.
class PcieLink : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(PcieLink);
    /// Validates `cfg` (ConfigError). Stats go under this module's name.
    PcieLink(sc_core::sc_module_name name, const PcieConfig& cfg, HostMemory& host,
             sim::StatRegistry& stats);

    /// Copies `bytes` in direction `d` and returns when the copy has completed. Must be
    /// called from an SC_THREAD (it wait()s).
    void copy(Direction d, uint64_t bytes);

    /// Queues a copy and returns at once. The returned event is notified (immediately, from
    /// the link's process) when the copy completes; at that moment `*done_ps`, if given, is
    /// set to the completion time in ps (it holds UINT64_MAX until then). The reference stays
    /// valid; after completion the event is recycled for a later copy, so wait on it only
    /// while the copy is pending (test `*done_ps` first, or wait for `a & b` together).
    /// `setup_ns`: this copy's setup phase, ns; negative = per_transfer_overhead_ns (copies
    /// started by hardware, e.g. the GMMU's migration buffer, need no driver setup).
    /// `pipelined`: the engine takes its next copy once this one's data has been sent, while
    /// this one's flight latency runs (many outstanding requests, as hardware issues them).
    sc_core::sc_event& start_copy(Direction d, uint64_t bytes, uint64_t* done_ps = nullptr, double setup_ns = -1.0,
                                  bool pipelined = false);

    /// Link data rate of direction `d`, GB/s (before host memory sharing).
    double rate_gbps(Direction d) const { return m_rate_gbps[static_cast<int>(d)]; }
    /// Time an uncontended copy takes: overhead + latency + bytes / min(link, host), ps.
    uint64_t uncontended_ps(Direction d, uint64_t bytes) const;
    /// Number of DMA engines (1 or 2).
    unsigned engines() const { return m_cfg.dma_engines; }
    /// Copies queued or in flight.
    size_t pending() const { return m_engines[0].queue.size() + m_engines[1].queue.size() + m_flying.size(); }
    /// Times the link's process has run (each is one phase change or a new copy).
    uint64_t wakeups() const { return m_wakeups; }
    /// Completed copies / bytes of direction `d`.
    uint64_t transfers(Direction d) const { return m_dir[static_cast<int>(d)].transfers.value(); }
    uint64_t bytes(Direction d) const { return m_dir[static_cast<int>(d)].bytes.value(); }
    /// Time engine `e` held a copy (setup to completion), ps, up to the last phase change.
    uint64_t engine_busy_ps(unsigned e) const { return m_engines[e].busy_ps.value(); }
    /// Time both engines held a copy at once, ps.
    uint64_t overlap_ps() const { return m_overlap_ps.value(); }

private:
    enum class Phase { Queued, Setup, Data, Flight };
    struct Transfer {
        Direction dir;
        uint64_t bytes;
        double remaining = 0;  ///< bytes left in the data phase
        double rate = 0;       ///< bytes per ps in the data phase
        Phase phase = Phase::Queued;
        uint64_t phase_end = 0;  ///< ps; end of setup or flight
        uint64_t queued_at = 0, started_at = 0;
        uint64_t setup_ps = 0;
        bool pipelined = false;
        sc_core::sc_event* done = nullptr;
        uint64_t* done_ps = nullptr;
    };
    struct Engine {
        std::deque<Transfer> queue;  ///< front is in progress (unless Queued)
        sim::Counter busy_ps;
    };
    struct DirStats {
        sim::Counter transfers, bytes, active_ps;
        sim::Average copy_time_ns;
    };

    void on_wake();
    void account(uint64_t now);
    bool step(Engine& e, uint64_t now);
    void complete(Engine& e, uint64_t now);
    void finish(const Transfer& t, uint64_t now);
    void reshare();
    void reschedule(uint64_t now);
    sc_core::sc_event* acquire_event();
    Engine& engine_for(Direction d) { return m_engines[m_cfg.dma_engines == 2 ? static_cast<int>(d) : 0]; }

    PcieConfig m_cfg;
    HostMemory& m_host;
    std::array<double, 2> m_rate_gbps;
    uint64_t m_overhead_ps, m_latency_ps;
    std::array<Engine, 2> m_engines;
    std::vector<Transfer> m_flying;  ///< pipelined copies in flight, off their engine
    std::array<DirStats, 2> m_dir;
    sim::Counter m_overlap_ps;
    sc_core::sc_event m_wake;
    uint64_t m_last = 0;  ///< ps; time up to which account() has advanced
    uint64_t m_wakeups = 0;
    std::deque<std::unique_ptr<sc_core::sc_event>> m_events;
    std::deque<sc_core::sc_event*> m_free;
};

}  // namespace stacksim::memory
