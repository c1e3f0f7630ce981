// SPDX-License-Identifier: Apache-2.0
// The simulated system: clock domains, SMs, memory, CTA dispatcher and host, bound together.
#include "top/gpu_system.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>

#include "sched/cta_placement.h"
#include "sched/warp_scheduler_registry.h"
#include "sim/error.h"
#include "sim/failure.h"
#include "top/gpu_totals.h"
#include "top/run_report.h"

namespace stacksim::top {

uint64_t period_ps(double mhz) { return static_cast<uint64_t>(std::llround(1e6 / mhz)); }

GpuSystem::GpuSystem(sc_core::sc_module_name name, const RunConfig& cfg, const std::vector<App>& apps,
                     const std::string& ptx_dir, sim::StatRegistry& stats, bool show_progress)
    : sc_module(name), m_cfg(cfg), m_core_clock("core_clock", period_ps(cfg.gpu.core_clock_mhz)),
      m_progress(stderr, show_progress) {
    m_memory = std::make_unique<MemorySystem>("mem", cfg, m_core_clock, stats);
    if (cfg.host.timed_copies || cfg.uvm.managed()) {
        m_host_memory = std::make_unique<memory::HostMemory>("host.memory", cfg.host_memory, stats);
        m_pcie = std::make_unique<memory::PcieLink>("pcie", cfg.pcie, *m_host_memory, stats);
    }
    if (cfg.uvm.enabled()) {
        memory::GmmuPlatform platform{cfg.address_map.partitions, cfg.address_map.interleave_bytes, cfg.run.seed};
        platform.compression_on_demand =
            cfg.etc.enabled() && (cfg.etc.mode == memory::EtcMode::Auto || cfg.etc.compression);
        m_gmmu = std::make_unique<memory::Gmmu>("gmmu", cfg.uvm, platform, m_pcie.get(), stats);
        if (memory::PageCompression* c = m_gmmu->compression())
            m_memory->set_dram_extra_latency(
                [c](uint32_t channel, const tlm::tlm_generic_payload& p) { return c->access_latency(channel, p.get_address()); });
    }
    std::vector<const core::CtaStatus*> statuses;
    for (uint32_t i = 0; i < cfg.gpu.num_sms; ++i) {
        std::vector<std::unique_ptr<core::WarpSchedulerPolicy>> policies;
        for (uint32_t s = 0; s < cfg.sm.schedulers; ++s)
            policies.push_back(sched::warp_schedulers().create(cfg.sm_policies.warp_scheduler));
        auto sm = std::make_unique<core::Sm>(fmt::format("sm{}", i).c_str(), i, cfg.sm, m_core_clock,
                                             std::move(policies), stats);
        sm->set_num_sms(cfg.gpu.num_sms);
        memory::TranslationUnit* tlb = nullptr;
        if (m_gmmu) {
            m_tlbs.push_back(std::make_unique<memory::TranslationUnit>(fmt::format("sm{}_tlb", i).c_str(), cfg.uvm,
                                                                      *m_gmmu, m_core_clock, stats,
                                                                      cfg.l1.enabled ? cfg.l1.line_bytes : cfg.l2.line_bytes,
                                                                      cfg.l1.enabled ? cfg.l1.sector_bytes : cfg.l2.sector_bytes));
            tlb = m_tlbs.back().get();
            sm->downstream.bind(tlb->upstream);
        }
        if (cfg.l1.enabled) {
            auto l1 = std::make_unique<memory::SectorCache>(fmt::format("sm{}_l1", i).c_str(), cfg.l1, m_core_clock, stats);
            if (tlb) tlb->downstream.bind(l1->upstream);
            else sm->downstream.bind(l1->upstream);
            m_memory->connect(l1->downstream);
            m_l1s.push_back(std::move(l1));
        } else if (tlb) {
            m_memory->connect(tlb->downstream);
        } else {
            m_memory->connect(sm->downstream);
        }
        statuses.push_back(&sm->cta_manager());
        m_sms.push_back(std::move(sm));
    }
    m_dispatcher = std::make_unique<sched::CtaDispatcher>(statuses, sched::cta_placements().create(cfg.gpu.cta_scheduler),
                                                          cfg.gpu.sm_sharing);
    // The CTA command/event ports (core/cta_port.h): the schedulers' commands to each SM's CTA
    // manager; its events to the ETC controller (if any), then the dispatcher, which passes
    // them on to the preemption controller.
    for (size_t i = 0; i < m_sms.size(); ++i) m_dispatcher->sms()[i]->commands.bind(m_sms[i]->cta_manager());
    m_kmu = std::make_unique<sched::KernelManagementUnit>(
        *m_dispatcher, cfg.gpu.max_resident_kernels,
        sched::kernel_schedulers().create(cfg.kernel_scheduler.policy, scheduler_probe(stats)));
    m_preemption = std::make_unique<sched::PreemptionController>("preemption", *m_dispatcher, cfg.sm, m_core_clock,
                                                                 cfg.gpu.core_clock_mhz, cfg.memory_peak_gbps(),
                                                                 cfg.preemption, stats);
    m_dispatcher->events.bind(*m_preemption);
    if (m_gmmu && cfg.etc.enabled()) {
        std::vector<const core::SmActivity*> sms;
        for (auto& sm : m_sms) sms.push_back(sm.get());
        m_etc = std::make_unique<uvm::EtcController>("etc", cfg.etc, std::move(sms), *m_gmmu, m_core_clock, stats);
        for (size_t i = 0; i < m_sms.size(); ++i) m_etc->commands(static_cast<uint32_t>(i)).bind(m_sms[i]->cta_manager());
    }
    m_kmu->events.bind(*m_preemption);
    if (m_kmu->policy_decides_preemptions()) {  // FCFS runs keep their stats unchanged
        // The kernel scheduler decides preemptions; priorities no longer trigger requests.
        m_preemption->set_priority_preemption(false);
        sim::StatGroup ks(stats, std::string(this->name()) + ".kernel_scheduler");
        ks.add_formula("preemptions", [this] { return static_cast<double>(m_kmu->decisions().preemptions); },
                       "running kernels the kernel scheduler preempted (patent: for a better pair; priority: for a "
                       "higher-priority kernel)", "kernels");
        ks.add_formula("declined", [this] { return static_cast<double>(m_kmu->decisions().declined); },
                       "decisions at the cap where a better pair existed but the predicted gain did not exceed "
                       "the cost", "decisions");
        ks.add_formula("gain.taken", [this] { return m_kmu->decisions().gain_taken; },
                       "predicted gain of the preemptions made, summed (patent: alone-equivalent cycles)", "cycles");
        ks.add_formula("cost.taken", [this] { return m_kmu->decisions().cost_taken; },
                       "predicted cost of the preemptions made, summed", "cycles");
        ks.add_formula("gain.declined", [this] { return m_kmu->decisions().gain_declined; },
                       "predicted gain of the best pair of each declined decision, summed", "cycles");
        ks.add_formula("cost.declined", [this] { return m_kmu->decisions().cost_declined; },
                       "predicted cost of the best pair of each declined decision, summed", "cycles");
    }
    for (auto& sm : m_sms) {
        if (m_etc) sm->cta_manager().events.bind(*m_etc);
        sm->cta_manager().events.bind(*m_dispatcher);
    }
    m_device = std::make_unique<host::DeviceRuntime>(cfg.sm, ptx_dir, m_core_clock, m_pcie.get());
    m_device->set_num_sms(cfg.gpu.num_sms);
    if (m_gmmu) m_device->set_gmmu(m_gmmu.get(), cfg.uvm.mode == memory::UvmMode::Ideal || !cfg.host.timed_copies);
    for (size_t i = 0; i < apps.size(); ++i) {
        const std::string hname = apps.size() == 1 ? "host" : fmt::format("host{}", i);
        m_hosts.push_back(std::make_unique<host::HostProgram>(hname.c_str(), *apps[i].workload, *m_device, *m_kmu,
                                                              apps[i].settings));
        m_hosts.back()->on_finished([this] {
            if (--m_apps_running == 0) sc_core::sc_stop();
        });
    }
    m_apps_running = m_hosts.size();

    sim::StatGroup g(stats, std::string(this->name()));
    g.add_formula("cycles", [this] { return static_cast<double>(m_core_clock.cycle()); },
                  "core cycles simulated", "cycles");
    g.add_formula("warp_instructions", [this] { return static_cast<double>(warp_instructions()); },
                  "warp instructions issued by all SMs", "instructions");
    // One IPC definition for stats.json and summary.json (docs/stats.md#ipc): over the cycles in
    // which some kernel ran, so copies and host time before, between and after do not dilute it.
    g.add_formula("kernel_cycles", [this] { return static_cast<double>(busy_cycles(m_device->kernels())); },
                  "core cycles in which at least one kernel ran (summary.json kernel_cycles)", "cycles");
    g.add_formula("ipc", [this] {
        const double c = static_cast<double>(busy_cycles(m_device->kernels()));
        return c ? static_cast<double>(warp_instructions()) / c : 0.0;
    }, "warp instructions per kernel cycle, whole GPU (summary.json ipc)", "instructions/cycle");
    g.add_formula("run_ipc", [this] {
        const double c = static_cast<double>(m_core_clock.cycle());
        return c ? static_cast<double>(warp_instructions()) / c : 0.0;
    }, "warp instructions per simulated core cycle, copies and host time included", "instructions/cycle");
    g.add_formula("core_clock.busy_edges", [this] { return static_cast<double>(m_core_clock.busy_edges()); },
                  "core clock edges on which some component was ticked", "cycles");
    g.add_formula("core_clock.component_ticks", [this] { return static_cast<double>(m_core_clock.ticks()); },
                  "component ticks performed by the core clock domain", "ticks");

    if (m_gmmu) {
        auto sum = [this](bool misses) {
            double n = 0;
            for (auto& t : m_tlbs) n += static_cast<double>(misses ? t->misses() : t->hits());
            return n;
        };
        g.add_formula("l1_tlb.hits", [sum] { return sum(false); }, "L1 TLB hits, all SMs", "lookups");
        g.add_formula("l1_tlb.misses", [sum] { return sum(true); }, "L1 TLB misses, all SMs", "lookups");
        g.add_formula("l1_tlb.miss_rate", [sum] {
            double h = sum(false), m = sum(true);
            return h + m ? m / (h + m) : 0.0;
        }, "L1 TLB miss rate, all SMs", "ratio");
    }
    GpuTotals::register_in(stats);
    SC_METHOD(monitor);
    sensitive << m_monitor_event;
    dont_initialize();
    m_monitor_event.notify(m_core_clock.period() * static_cast<double>(kMonitorCycles));
}

bool GpuSystem::finished() const {
    for (auto& h : m_hosts)
        if (!h->finished()) return false;
    return true;
}

sched::SchedulerProbe GpuSystem::scheduler_probe(const sim::StatRegistry& stats) const {
    sched::SchedulerProbe p;
    p.cycle = [this] { return m_core_clock.cycle(); };
    p.dispatcher = m_dispatcher.get();
    std::vector<std::string> slices;  // the L2 slices' stat prefixes
    const std::string reads = ".reads";
    for (const std::string& n : stats.names())
        if (n.find(".l2_") != std::string::npos && n.size() > reads.size() &&
            n.compare(n.size() - reads.size(), reads.size(), reads) == 0)
            slices.push_back(n.substr(0, n.size() - reads.size()));
    p.l2_reads_misses = [&stats, slices] {
        std::pair<uint64_t, uint64_t> r{0, 0};
        for (const std::string& s : slices) {
            r.first += static_cast<uint64_t>(stats.value(s + ".reads"));
            r.second += static_cast<uint64_t>(stats.value(s + ".read_misses"));
        }
        return r;
    };
    return p;
}

uint64_t GpuSystem::warp_instructions() const {
    uint64_t n = 0;
    for (auto& sm : m_sms) n += sm->warp_instructions();
    return n;
}

void GpuSystem::monitor() {
    uint64_t done = m_dispatcher->ctas_completed();
    // The monitor's own event is not pending while it runs: anything pending is the system's.
    const uint64_t busy = m_core_clock.busy_edges(), deltas = sc_core::sc_delta_count();
    const bool waiting = busy == m_last_busy_edges && deltas - m_last_deltas <= kWaitingDeltas &&
                         sc_core::sc_pending_activity();
    m_last_busy_edges = busy;
    m_last_deltas = deltas;
    // Demand paging progressed: pages arrived and warps retired instructions in this window.
    const uint64_t migrated = m_gmmu ? m_gmmu->bytes_migrated() : 0, instructions = warp_instructions();
    const bool paging = migrated != m_last_migrated && instructions != m_last_instructions;
    m_last_migrated = migrated;
    m_last_instructions = instructions;
    auto trip = [this](const std::string& what) {
        std::string state;
        for (auto& sm : m_sms)
            if (sm->busy()) state += sm->describe_state();
        sim::record_failure(std::make_exception_ptr(sim::SimulationError(fmt::format(
            "deadlock watchdog: {} (cycle {}); waiting warps:\n{}", what, m_core_clock.cycle(), state))));
    };
    if (done != m_last_completed || m_dispatcher->idle()) {
        m_last_completed = done;
        m_stalled_cycles = 0;
        m_paging_cycles = 0;
    } else if (paging) {
        m_stalled_cycles = 0;
        m_paging_cycles += kMonitorCycles;
        if (m_paging_cycles >= kPagingProgressFactor * m_cfg.gpu.watchdog_cycles)
            return trip(fmt::format("no CTA finished in {} cycles although pages kept arriving (an eviction "
                                    "livelock?)", m_paging_cycles));
    } else if (!waiting) {
        m_stalled_cycles += kMonitorCycles;
        m_paging_cycles += m_paging_cycles ? kMonitorCycles : 0;
        if (m_stalled_cycles >= m_cfg.gpu.watchdog_cycles)
            return trip(fmt::format("no CTA finished in {} cycles", m_stalled_cycles));
    }
    if (m_progress.enabled()) {
        // The run's end is not known (kernels are launched as the host program goes), so no ETA.
        const core::KernelLaunch* k = m_dispatcher->current();
        m_progress.update(fmt::format("cycle {}  kernel {}{}  {:.0f} warp-instr/s", m_core_clock.cycle(),
                                      k ? k->name() : "-", k ? fmt::format(" ({} CTAs)", k->num_ctas()) : "",
                                      static_cast<double>(warp_instructions()) / m_progress.elapsed()));
    }
    m_monitor_event.notify(m_core_clock.period() * static_cast<double>(kMonitorCycles));
}

}  // namespace stacksim::top
