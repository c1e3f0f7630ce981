// SPDX-License-Identifier: Apache-2.0
// SM component bench: one core::Sm whose downstream socket is bound to a ScriptedMemory.
#pragma once
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "core/kernel_launch.h"
#include "core/reconvergence.h"
#include "core/sm.h"
#include "sched/cta_dispatcher.h"
#include "sched/cta_placement.h"
#include "sched/warp_scheduler_registry.h"
#include "sim/sparse_memory.h"
#include "sim/stats.h"
#include "tests/component/scripted_memory.h"
#include "tests/unit/ptx_test_util.h"

namespace stacksim::test {

/// One SM (id `kSmId`, name "sm") on a 1 GHz clock, a scripted memory ("mem") on the same
/// clock, a CTA dispatcher over the SM and a functional global memory. Kernels are PTX
/// snippets (tests/unit/ptx_test_util.h: `t(.u64 p0, .u64 p1, .u32 p2)`); start() queues a
/// launch, run() simulates until nothing is left to do. One bench per process.
class SmBench {
public:
    static constexpr uint32_t kSmId = 3;  ///< not 0, so that MemExtension::source is checked

    /// A queued kernel and what became of it.
    struct Run {
        core::KernelLaunch launch;
        uint64_t start_cycle = 0;
        uint64_t end_cycle = 0;
        bool done = false;
        uint64_t cycles() const { return end_cycle - start_cycle; }
    };

    explicit SmBench(const core::SmConfig& cfg = core::SmConfig(), uint64_t latency = 100)
        : clock("clk", 1000), sm("sm", kSmId, cfg, clock, policies(cfg), stats), mem("mem", clock, latency),
          dispatcher({&sm.cta_manager()}, sched::cta_placements().create("round_robin")) {
        sm.downstream.bind(mem.upstream);
        dispatcher.sms()[0]->commands.bind(sm.cta_manager());
        sm.cta_manager().events.bind(dispatcher);
    }

    /// Parses the snippet `body` once; the kernel lives as long as the bench.
    const core::Kernel& kernel(const std::string& body) {
        m_modules.push_back(std::make_unique<core::Module>(workloads::parse_ptx(snippet(body), "bench.ptx")));
        REQUIRE(m_modules.back()->kernels.size() == 1);
        core::Kernel& k = m_modules.back()->kernels[0];
        core::compute_reconvergence(k);
        return k;
    }

    /// Queues `k` with `threads` threads per CTA, `ctas` CTAs and parameters p0, p1, p2.
    Run& start(const core::Kernel& k, uint32_t threads, uint64_t p0, uint64_t p1 = 0, uint32_t p2 = 0,
               uint32_t ctas = 1) {
        m_runs.push_back(std::make_unique<Run>());
        Run& r = *m_runs.back();
        core::KernelLaunch& l = r.launch;
        l.id = static_cast<uint32_t>(m_runs.size() - 1);
        l.code_id = l.id;
        l.kernel = &k;
        l.grid = {ctas, 1, 1};
        l.block = {threads, 1, 1};
        l.params.assign(k.param_bytes, 0);
        const uint64_t values[3] = {p0, p1, p2};
        for (size_t i = 0; i < k.params.size() && i < 3; ++i)
            std::memcpy(l.params.data() + k.params[i].offset, &values[i], k.params[i].bytes);
        l.shared_bytes = k.static_shared_bytes;
        l.regs_per_thread = 32;
        l.global = &global;
        r.start_cycle = clock.cycle();
        dispatcher.start(l, [this, &r](core::KernelLaunch&) {
            r.end_cycle = clock.cycle();
            r.done = true;
        });
        return r;
    }

    /// Simulates until every component sleeps with nothing scheduled.
    void run() { sc_core::sc_start(); }
    /// Simulates `cycles` more clock cycles.
    void run_for(uint64_t cycles) { sc_core::sc_start(sc_core::sc_time(static_cast<double>(cycles), sc_core::SC_NS)); }

    double stat(const std::string& name) const { return stats.value(std::string("sm.") + name); }

    sim::StatRegistry stats;
    sim::ClockDomain clock;
    core::Sm sm;
    ScriptedMemory mem;
    sched::CtaDispatcher dispatcher;
    sim::SparseMemory global;

private:
    static std::vector<std::unique_ptr<core::WarpSchedulerPolicy>> policies(const core::SmConfig& cfg) {
        std::vector<std::unique_ptr<core::WarpSchedulerPolicy>> p;
        for (uint32_t s = 0; s < cfg.schedulers; ++s) p.push_back(sched::warp_schedulers().create("lrr"));
        return p;
    }
    std::vector<std::unique_ptr<core::Module>> m_modules;
    std::vector<std::unique_ptr<Run>> m_runs;
};

}  // namespace stacksim::test
