// SPDX-License-Identifier: Apache-2.0
// The CTA lifecycle of one SM: slots and resources, starting, finishing and restoring CTAs.
#include "core/cta_manager.h"

#include <algorithm>

#include "core/occupancy.h"

namespace stacksim::core {

CtaManager::CtaManager(uint32_t sm_id, const SmConfig& cfg, sim::ClockDomain& clock, SmPipeline& pipeline,
                       sim::StatRegistry& stats, const std::string& prefix)
    : m_id(sm_id), m_cfg(cfg), m_clock(clock), m_pipe(pipeline) {
    m_ctas.resize(cfg.max_ctas);
    sim::StatGroup g(stats, prefix);
    g.add("ctas_completed", m_ctas_done, "CTAs completed", "CTAs");
    g.add("preemption.ctas_switched", m_ctas_switched, "CTAs context-switched out (context saved)", "CTAs");
    g.add("preemption.ctas_restored", m_ctas_restored, "context-switched CTAs resumed here (context read back)", "CTAs");
    g.add("preemption.ctas_flushed", m_ctas_flushed, "CTAs dropped to restart from their beginning", "CTAs");
    g.add("preemption.context_bytes_saved", m_context_saved, "context written to the context area", "bytes");
    g.add("preemption.context_bytes_restored", m_context_restored, "context read back from the context area", "bytes");
    g.add("preemption.save_cycles", m_save_cycles, "preemption request to context saved, summed over CTAs", "cycles");
    g.add("preemption.restore_cycles", m_restore_cycles, "restore start to context read back, summed over CTAs", "cycles");
    g.add("preemption.flushed_instructions", m_flushed_instructions, "warp instructions of flushed CTAs (work lost)",
          "instructions");
    g.add("preemption.flushed_cycles", m_flushed_cycles, "resident cycles of flushed CTAs (work lost)", "cycles");
    g.add("preemption.context_writes", m_context_writes,
          "context writes begun: switches and PEP checkpoints (first, second, single)", "writes");
    g.add("preemption.pipeline_drain_cycles", m_pipeline_drain_cycles,
          "stop order to pipeline drained (every result and memory response back), summed over the context writes",
          "cycles");
    g.add("preemption.context_write_cycles", m_context_write_cycles,
          "pipeline drained to the last context line acknowledged, summed over the context writes", "cycles");
}

void CtaManager::receive(CtaCommand& c) {
    ++m_epoch;
    switch (c.kind) {
    case CtaCommandKind::Start: start_cta(*c.launch, c.cta_index); break;
    case CtaCommandKind::Restore: restore_cta(*c.launch, std::move(c.saved)); break;
    case CtaCommandKind::Preempt: preempt_cta(c.slot, c.technique); break;
    case CtaCommandKind::Checkpoint: checkpoint_cta(c.slot, c.order); break;
    case CtaCommandKind::ArmCheckpoints: arm_checkpoints(c.value, c.order.counters); break;
    case CtaCommandKind::SetInplaceBudget: m_inplace_left = c.value; break;
    case CtaCommandKind::TrackSharedStores: m_track_shared = c.value != 0; break;
    case CtaCommandKind::StopFetch: m_pipe.stop_fetch(true); break;
    case CtaCommandKind::Resume: m_pipe.stop_fetch(false); break;
    case CtaCommandKind::ForgetKernel: forget_kernel(*c.launch); break;
    }
}

KernelTally* CtaManager::find_tally(const KernelLaunch* launch) {
    for (auto& [l, t] : m_tallies)
        if (l == launch) return t.get();
    return nullptr;
}

KernelTally* CtaManager::tally_of(const KernelLaunch& launch) {
    if (KernelTally* t = find_tally(&launch)) return t;
    m_tallies.emplace_back(&launch, std::make_unique<KernelTally>());
    return m_tallies.back().second.get();
}

KernelTally CtaManager::tally(const KernelLaunch& launch) const {
    for (auto& [l, t] : m_tallies)
        if (l == &launch) return *t;
    return {};
}

void CtaManager::forget_kernel(const KernelLaunch& launch) {
    for (auto it = m_tallies.begin(); it != m_tallies.end(); ++it)
        if (it->first == &launch) {
            m_tallies.erase(it);
            return;
        }
}

void CtaManager::report(CtaEvent e) {
    e.sm = m_id;
    events.send(std::move(e));
}

bool CtaManager::can_accept(const KernelLaunch& launch) const {
    uint32_t threads = launch.warps_per_cta() * kWarpSize;
    uint32_t regs = registers_per_warp(launch.regs_per_thread) * launch.warps_per_cta();
    return m_ctas_running < m_cfg.max_ctas && m_threads_used + threads <= m_cfg.max_threads &&
           m_regs_used + regs <= m_cfg.registers &&
           m_smem_used + launch.shared_bytes <= m_cfg.shared_memory_bytes;
}

uint32_t CtaManager::take_slot() {
    uint32_t cslot = 0;
    while (m_ctas[cslot].used) ++cslot;
    return cslot;
}

void CtaManager::emit(SmEventKind kind, uint32_t slot) {
    SmEvent e{kind, m_clock.cycle(), m_id, slot, 0};
    const CtaSlot& cta = m_ctas[slot];
    e.cta = cta.cta_index;
    e.since = cta.preempt_cycle;
    if (cta.launch) e.kernel = cta.launch->name().c_str();
    m_observer->on_event(e);
}

void CtaManager::start_cta(KernelLaunch& launch, uint64_t cta_index) {
    const uint32_t cslot = take_slot();
    CtaSlot& cta = m_ctas[cslot];
    const uint32_t nwarps = launch.warps_per_cta();
    cta.used = true;
    cta.launch = &launch;
    cta.tally = tally_of(launch);
    cta.cta_index = cta_index;
    cta.warps_total = nwarps;
    cta.warps_live = nwarps;
    cta.barrier_arrived = 0;
    cta.registers = registers_per_warp(launch.regs_per_thread) * nwarps;
    cta.start_cycle = m_clock.cycle();
    cta.prior_cycles = 0;
    cta.state = CtaState::Running;
    cta.switch_out = false;
    cta.context_outstanding = 0;
    cta.warp_instructions = 0;
    cta.ctx.ctaid = launch.cta_coords(cta_index);
    cta.ctx.ntid = launch.block;
    cta.ctx.nctaid = launch.grid;
    cta.ctx.sm_id = m_id;
    cta.ctx.shared.assign(launch.shared_bytes, 0);
    cta.ctx.num_sms = m_num_sms;
    cta.ctx.max_warps = m_pipe.warp_slots();
    cta.ctx.grid_id = launch.id;
    cta.ctx.dynamic_smem = launch.shared_bytes - (launch.kernel ? std::min(launch.shared_bytes, launch.kernel->static_shared_bytes) : 0);
    cta.ctx.clock_period_ps = m_clock.period_ps();
    cta.ctx.grid_workspace = launch.grid_workspace;
    cta.ctx.textures = launch.textures;
    reset_checkpoints(cta);
    cta.ctx.params = &launch.params;
    cta.ctx.global = launch.global;
    cta.ctx.local_bytes = launch.local_bytes;
    cta.ctx.local_base = launch.local_base + cta_index * launch.local_cta_bytes();
    m_threads_used += nwarps * kWarpSize;
    m_regs_used += cta.registers;
    m_smem_used += launch.shared_bytes;
    ++m_ctas_running;

    const CtaTrace* trace = launch.trace ? &launch.trace->ctas[cta_index] : nullptr;
    if (trace) cta.ctx.ctaid = trace->id;
    const uint32_t num_regs = trace ? launch.trace->num_regs : launch.kernel->num_regs;
    const uint32_t threads = launch.threads_per_cta();
    std::vector<uint32_t> empty_warps;
    uint32_t slot = 0;
    for (uint32_t wi = 0; wi < nwarps; ++wi) {
        while (m_pipe.warp(slot).used) ++slot;
        Warp& w = m_pipe.warp(slot);
        w.used = true;
        w.finished = false;
        w.at_barrier = false;
        w.cta_slot = cslot;
        ++w.generation;
        w.age = m_warp_age++;
        w.fetch_pc = 0;
        w.fetch_wait_line = Warp::kNoLine;
        w.pending_mem = 0;
        w.pending_loads = 0;
        w.sleep_until = 0;
        w.ibuffer.flush();
        w.dirty = {};
        w.saved = {};
        w.ctx.cta = &cta.ctx;
        w.ctx.warp_in_cta = wi;
        if (trace) {
            w.code = nullptr;
            w.trace = wi < trace->warps.size() ? &trace->warps[wi] : nullptr;
            w.code_size = w.trace ? static_cast<uint32_t>(w.trace->insts.size()) : 0;
            w.ctx.regs.clear();  // timing only: no register values
        } else {
            w.code = &launch.kernel->code;
            w.trace = nullptr;
            w.code_size = static_cast<uint32_t>(launch.kernel->code.size());
            w.ctx.regs.assign(size_t{num_regs} * kWarpSize, 0);
        }
        uint32_t mask = 0;
        for (uint32_t lane = 0; lane < kWarpSize; ++lane) {
            uint32_t t = wi * kWarpSize + lane;
            if (t >= threads) continue;
            mask |= 1u << lane;
            w.ctx.tid_x[lane] = t % launch.block[0];
            w.ctx.tid_y[lane] = (t / launch.block[0]) % launch.block[1];
            w.ctx.tid_z[lane] = t / (launch.block[0] * launch.block[1]);
        }
        w.ctx.valid_mask = mask;
        w.stack.reset(0, mask);
        w.scoreboard.reset(num_regs);
        m_pipe.attach_warp(slot);
        if (w.code_size == 0) empty_warps.push_back(slot);
    }
    if (m_observer) emit(SmEventKind::CtaStart, cslot);
    for (uint32_t e : empty_warps) m_pipe.finish_warp(e);  // a traced warp with no instructions
    m_pipe.wake();
}

void CtaManager::restore_cta(KernelLaunch& launch, std::unique_ptr<SavedCta> saved) {
    const uint32_t cslot = take_slot();
    CtaSlot& cta = m_ctas[cslot];
    cta = saved->cta;
    cta.used = true;
    cta.launch = &launch;
    cta.tally = tally_of(launch);
    cta.warps_total = static_cast<uint32_t>(saved->warps.size());
    cta.warps_live = cta.warps_total;
    cta.registers = registers_per_warp(launch.regs_per_thread) * launch.warps_per_cta();
    cta.start_cycle = m_clock.cycle();
    cta.prior_cycles = saved->resident_cycles;
    cta.warp_instructions = saved->warp_instructions;
    cta.state = CtaState::Restoring;
    cta.context_bytes = saved->context_bytes;
    cta.context_addr = saved->context_addr;
    // Dirty-tracked: read back every register / block some checkpoint holds, except the newest
    // checkpoint's part kept in place in the SM.
    if (cta.ckpt.taken > 0) cta.context_bytes = cta.ckpt.union_bytes - std::min(cta.ckpt.union_bytes, cta.ckpt.newest_inplace);
    cta.preempt_cycle = m_clock.cycle();
    cta.ctx.sm_id = m_id;
    cta.ctx.params = &launch.params;
    cta.ctx.global = launch.global;
    m_threads_used += launch.warps_per_cta() * kWarpSize;
    m_regs_used += cta.registers;
    m_smem_used += launch.shared_bytes;
    ++m_ctas_running;
    uint32_t slot = 0;
    for (Warp& saved_warp : saved->warps) {
        while (m_pipe.warp(slot).used) ++slot;
        Warp& w = m_pipe.warp(slot);
        const uint32_t generation = w.generation + 1;
        w = std::move(saved_warp);
        w.used = true;
        w.generation = generation;
        w.cta_slot = cslot;
        w.age = m_warp_age++;
        w.pending_mem = 0;
        w.pending_loads = 0;
        w.ibuffer.flush();
        w.fetch_pc = w.stack.pc();
        w.fetch_wait_line = Warp::kNoLine;
        w.ctx.cta = &cta.ctx;
        m_pipe.attach_warp(slot);
    }
    ++m_ctas_restored;
    if (m_observer) emit(SmEventKind::CtaStart, cslot);
    queue_context(cslot, sim::MemAccess::Read);
    m_pipe.wake();
}

void CtaManager::warp_freed(uint32_t slot) {
    ++m_epoch;
    CtaSlot& cta = m_ctas[slot];
    if (--cta.warps_total > 0) return;
    KernelLaunch& launch = *cta.launch;
    if (cta.state != CtaState::Running) --m_preempting;  // it ended while being preempted
    if (m_observer) emit(SmEventKind::CtaEnd, slot);
    cta.used = false;
    // The kernel's tallies are the dispatcher's: it adds these when it hears of the end.
    CtaEvent e;
    e.launch = &launch;
    e.cta_index = cta.cta_index;
    e.cycles = cta.prior_cycles + (m_clock.cycle() - cta.start_cycle);
    e.instructions = cta.warp_instructions;
    m_threads_used -= launch.warps_per_cta() * kWarpSize;
    m_regs_used -= cta.registers;
    m_smem_used -= launch.shared_bytes;
    --m_ctas_running;
    ++m_ctas_done;
    report(std::move(e));
}

}  // namespace stacksim::core
