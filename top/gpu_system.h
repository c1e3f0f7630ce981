// SPDX-License-Identifier: Apache-2.0
// The simulated system: clock domains, SMs, memory, CTA dispatcher and host, bound together.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "core/sm.h"
#include "memory/gmmu.h"
#include "memory/sector_cache.h"
#include "memory/translation_unit.h"
#include "memory/simple_memory.h"
#include "uvm/etc_controller.h"
#include "top/memory_system.h"
#include "sched/cta_dispatcher.h"
#include "sched/kernel_management_unit.h"
#include "sim/clock_domain.h"
#include "sim/progress_line.h"
#include "sim/stats.h"
#include "sched/preemption_controller.h"
#include "host/host_program.h"
#include "top/run_config.h"

namespace stacksim::top {

/// Instantiates and binds every module for one run. Also runs the monitor: a timed check
/// every `kMonitorCycles` core cycles that trips the deadlock watchdog and prints progress.
/// The watchdog counts the cycles in which no CTA finished, except windows in which the GPU
/// only waited: no SM was ticked, hardly anything else happened (at most `kWaitingDeltas`
/// delta cycles) and some event is still due, as while a long fault or a slow copy is served,
/// and windows in which demand paging made progress: pages arrived and warps retired
/// instructions (a run thrashing GPU memory finishes CTAs rarely but is not deadlocked). So a
/// spin loop or a real deadlock trips it, a long modelled latency or a fault-bound run does
/// not; one whose CTAs stop finishing for `kPagingProgressFactor` watchdog windows although
/// pages keep arriving trips it too (a livelock of evictions).
class GpuSystem : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(GpuSystem);
    static constexpr uint64_t kMonitorCycles = 100'000;
    static constexpr uint64_t kWaitingDeltas = 16;
    static constexpr uint64_t kPagingProgressFactor = 100;

    /// One application: its host program and how it runs.
    struct App {
        workloads::Workload* workload;
        host::AppSettings settings;
    };

    GpuSystem(sc_core::sc_module_name name, const RunConfig& cfg, const std::vector<App>& apps,
              const std::string& ptx_dir, sim::StatRegistry& stats, bool show_progress);

    /// The first application's host program (the only one of a single-application run).
    host::HostProgram& host() { return *m_hosts.front(); }
    const std::vector<std::unique_ptr<host::HostProgram>>& hosts() const { return m_hosts; }
    host::DeviceRuntime& device() { return *m_device; }
    /// Every application's host program finished.
    bool finished() const;
    sim::ClockDomain& core_clock() { return m_core_clock; }
    uint64_t warp_instructions() const;
    /// The GMMU, or null when uvm.mode is "off".
    memory::Gmmu* gmmu() { return m_gmmu.get(); }
    const std::vector<std::unique_ptr<core::Sm>>& sms() const { return m_sms; }
    sched::PreemptionController& preemption() { return *m_preemption; }
    const MemorySystem& memory() const { return *m_memory; }
    const RunConfig& config() const { return m_cfg; }
    /// Attaches `o` to every SM (timeline, watch log).
    void set_observer(core::SmObserver* o) {
        for (auto& sm : m_sms) sm->set_observer(o);
    }

private:
    void monitor();
    /// What a kernel-scheduling policy may read of this GPU (clock, L2 counters, dispatcher).
    sched::SchedulerProbe scheduler_probe(const sim::StatRegistry& stats) const;

    RunConfig m_cfg;
    sim::ClockDomain m_core_clock;
    std::vector<std::unique_ptr<core::Sm>> m_sms;
    std::vector<std::unique_ptr<memory::SectorCache>> m_l1s;
    std::unique_ptr<memory::Gmmu> m_gmmu;
    std::vector<std::unique_ptr<memory::TranslationUnit>> m_tlbs;
    std::unique_ptr<MemorySystem> m_memory;
    std::unique_ptr<sched::CtaDispatcher> m_dispatcher;
    std::unique_ptr<sched::KernelManagementUnit> m_kmu;
    std::unique_ptr<sched::PreemptionController> m_preemption;
    std::unique_ptr<host::DeviceRuntime> m_device;
    std::unique_ptr<memory::HostMemory> m_host_memory;
    std::unique_ptr<memory::PcieLink> m_pcie;
    std::unique_ptr<uvm::EtcController> m_etc;
    std::vector<std::unique_ptr<host::HostProgram>> m_hosts;
    size_t m_apps_running = 0;
    sc_core::sc_event m_monitor_event;
    uint64_t m_last_completed = 0;
    uint64_t m_stalled_cycles = 0;
    uint64_t m_paging_cycles = 0;       ///< cycles without a CTA finishing since paging first excused one
    uint64_t m_last_migrated = 0;       ///< GMMU bytes migrated at the last check
    uint64_t m_last_instructions = 0;   ///< warp instructions at the last check
    sim::ProgressLine m_progress;
    uint64_t m_last_busy_edges = 0;  ///< core-clock busy edges at the last check
    uint64_t m_last_deltas = 0;      ///< SystemC delta cycles at the last check
};

/// Picoseconds in one period of a `mhz` clock, rounded to the nearest picosecond.
uint64_t period_ps(double mhz);

}  // namespace stacksim::top
