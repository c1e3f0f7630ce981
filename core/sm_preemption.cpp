// SPDX-License-Identifier: Apache-2.0
// Streaming multiprocessor: taking CTAs off (context switch, flush) and resuming saved ones.
#include <algorithm>

#include "common/context_extension.h"
#include "core/occupancy.h"
#include "core/sm.h"

namespace stacksim::core {

namespace {
/// SIMT stack, PC, predicate and barrier state saved per warp, bytes.
constexpr uint64_t kWarpControlBytes = 64;
}  // namespace

uint64_t Sm::context_bytes(const CtaSlot& cta) const {
    const KernelLaunch& l = *cta.launch;
    const uint64_t warps = cta.warps_live;
    return uint64_t{registers_per_warp(l.regs_per_thread)} * warps * 4 + l.shared_bytes + kWarpControlBytes * warps;
}

bool Sm::only_runs(const KernelLaunch& launch) const {
    for (const CtaSlot& cta : m_ctas)
        if (cta.used && cta.launch != &launch) return false;
    return true;
}

std::vector<ResidentCta> Sm::resident_ctas() const {
    std::vector<ResidentCta> out;
    const uint64_t now = m_clock.cycle();
    for (uint32_t c = 0; c < m_ctas.size(); ++c) {
        const CtaSlot& cta = m_ctas[c];
        if (!cta.used) continue;
        ResidentCta r;
        r.slot = c;
        r.launch = cta.launch;
        r.cta_index = cta.cta_index;
        r.resident_cycles = cta.prior_cycles + (now - cta.start_cycle);
        r.warp_instructions = cta.warp_instructions;
        r.context_bytes = context_bytes(cta);
        // A CTA in a first checkpoint runs on afterwards: it is not leaving.
        r.leaving = cta.state != CtaState::Running && cta.state != CtaState::Restoring && !cta.ckpt.resume;
        r.restoring = cta.state == CtaState::Restoring;
        r.checkpoints = cta.ckpt.taken + (cta.ckpt.resume ? 1 : 0);
        r.armed_start = cta.ckpt.armed_start;
        out.push_back(r);
    }
    return out;
}

void Sm::preempt_cta(uint32_t slot, PreemptTechnique t) {
    if (t == PreemptTechnique::Drain) return;
    CtaSlot& cta = m_ctas.at(slot);
    if (!cta.used || cta.state != CtaState::Running)
        throw std::logic_error("Sm::preempt_cta: CTA slot is not running");
    stop_cta(slot, t == PreemptTechnique::Switch);
    if (m_observer) emit(SmEventKind::CtaEnd, m_clock.cycle(), slot);
    m_clock.activate(*this);
}

void Sm::stop_cta(uint32_t slot, bool switch_out) {
    CtaSlot& cta = m_ctas[slot];
    cta.state = CtaState::Stopping;
    cta.switch_out = switch_out;
    cta.preempt_cycle = m_clock.cycle();
    ++m_preempting;
    for (uint32_t s = 0; s < m_warps.size(); ++s)
        if (m_warps[s].used && m_warps[s].cta_slot == slot) m_warps[s].ibuffer.flush();  // fetch stops
}

bool Sm::cta_drained(uint32_t slot, bool registers) const {
    for (const Warp& w : m_warps)
        if (w.used && w.cta_slot == slot && (w.pending_mem || (registers && w.scoreboard.pending_count()))) return false;
    return true;
}

void Sm::progress_preemption() {
    for (uint32_t c = 0; c < m_ctas.size() && m_preempting; ++c) {
        CtaSlot& cta = m_ctas[c];
        if (!cta.used || cta.state != CtaState::Stopping) continue;
        // A switch waits for every result (registers are saved); a flush only for the memory
        // requests it has in flight (their payloads and responses must come back).
        if (!cta_drained(c, cta.switch_out)) continue;
        m_progress = true;
        if (cta.switch_out && cta.ckpt.dirty_only) {
            start_checkpoint_save(c);
        } else if (cta.switch_out) {
            cta.state = CtaState::Saving;
            cta.context_bytes = context_bytes(cta);
            cta.context_addr = common::kContextAreaBase + (uint64_t{m_id} << 28) + (uint64_t{c} << 20);
            queue_context(c, sim::MemAccess::Write);
        } else {
            cta.state = CtaState::Flushing;
            finish_flush(c);
        }
    }
}

uint64_t Sm::queue_lines(uint32_t slot, uint64_t addr, uint64_t total, sim::MemAccess access) {
    const uint64_t line = m_cfg.line_bytes;
    const uint64_t lines = (total + line - 1) / line;
    uint32_t warp = 0;
    while (!(m_warps[warp].used && m_warps[warp].cta_slot == slot)) ++warp;
    for (uint64_t i = 0; i < lines; ++i) {
        const uint64_t bytes = std::min(line, total - i * line);
        const uint32_t sectors = static_cast<uint32_t>((bytes + m_cfg.sector_bytes - 1) / m_cfg.sector_bytes);
        m_outgoing.push_back({addr + i * line, static_cast<uint32_t>(sectors * m_cfg.sector_bytes),
                              sectors >= 32 ? ~0u : (1u << sectors) - 1, warp, kContextTag | slot, access});
    }
    return lines;
}

void Sm::queue_context(uint32_t slot, sim::MemAccess access) {
    CtaSlot& cta = m_ctas[slot];
    uint64_t lines = 0;
    if (access == sim::MemAccess::Read && cta.ckpt.taken > 0) {
        // Newest checkpoint first, then what only older checkpoints hold.
        const uint64_t newest = std::min(cta.ckpt.newest_dram, cta.context_bytes);
        lines = queue_lines(slot, cta.ckpt.newest_addr, newest, access);
        lines += queue_lines(slot, cta.context_addr, cta.context_bytes - newest, access);
    } else {
        lines = queue_lines(slot, cta.context_addr, cta.context_bytes, access);
    }
    cta.context_outstanding = static_cast<uint32_t>(lines);
    m_in_flight += static_cast<uint32_t>(lines);
    if (lines == 0) context_done(slot);
}

void Sm::context_response(uint32_t slot) {
    --m_in_flight;
    CtaSlot& cta = m_ctas[slot];
    if (--cta.context_outstanding == 0) context_done(slot);
}

void Sm::context_done(uint32_t slot) {
    CtaSlot& cta = m_ctas[slot];
    m_progress = true;
    if (cta.state == CtaState::Restoring) {
        if (m_observer) emit(SmEventKind::CtaRestored, m_clock.cycle(), slot);
        cta.state = CtaState::Running;
        m_context_restored += cta.context_bytes;
        m_restore_cycles += m_clock.cycle() - cta.preempt_cycle;
        if (cta.ckpt.counters) cta.ckpt.counters->restore_bytes += cta.context_bytes;
        return;
    }
    if (cta.ckpt.resume) {
        finish_checkpoint(slot);
        return;
    }
    finish_save(slot);
}

void Sm::release_cta(uint32_t slot) {
    CtaSlot& cta = m_ctas[slot];
    const KernelLaunch& launch = *cta.launch;
    for (uint32_t s = 0; s < m_warps.size(); ++s) {
        Warp& w = m_warps[s];
        if (!w.used || w.cta_slot != slot) continue;
        w.used = false;
        ++w.generation;  // writebacks still queued for it are ignored
        auto& list = m_sched_warps[s % m_cfg.schedulers];
        list.erase(std::find(list.begin(), list.end(), s));
    }
    cta.used = false;
    m_threads_used -= launch.warps_per_cta() * kWarpSize;
    m_regs_used -= cta.registers;
    m_smem_used -= launch.shared_bytes;
    --m_ctas_running;
    --m_preempting;
}

void Sm::finish_save(uint32_t slot) {
    CtaSlot& cta = m_ctas[slot];
    KernelLaunch& launch = *cta.launch;
    auto saved = std::make_unique<SavedCta>();
    saved->cta_index = cta.cta_index;
    saved->context_bytes = cta.context_bytes;
    saved->context_addr = cta.context_addr;
    saved->warp_instructions = cta.warp_instructions;
    saved->resident_cycles = cta.prior_cycles + (m_clock.cycle() - cta.start_cycle);
    saved->cta = cta;
    std::vector<std::pair<uint32_t, uint32_t>> order;  // warp in CTA, slot
    for (uint32_t s = 0; s < m_warps.size(); ++s)
        if (m_warps[s].used && m_warps[s].cta_slot == slot) order.push_back({m_warps[s].ctx.warp_in_cta, s});
    std::sort(order.begin(), order.end());
    for (auto& [wi, s] : order) saved->warps.push_back(m_warps[s]);
    if (m_observer) emit(SmEventKind::CtaSaved, m_clock.cycle(), slot);
    ++m_ctas_switched;
    m_context_saved += cta.context_bytes;
    m_save_cycles += m_clock.cycle() - cta.preempt_cycle;
    release_cta(slot);
    if (on_cta_saved) on_cta_saved(*this, launch, std::move(saved));
}

void Sm::finish_flush(uint32_t slot) {
    CtaSlot& cta = m_ctas[slot];
    KernelLaunch& launch = *cta.launch;
    const uint64_t index = cta.cta_index;
    if (m_observer) emit(SmEventKind::CtaFlushed, m_clock.cycle(), slot);
    ++m_ctas_flushed;
    m_flushed_instructions += cta.warp_instructions;
    m_flushed_cycles += cta.prior_cycles + (m_clock.cycle() - cta.start_cycle);
    release_cta(slot);
    if (on_cta_flushed) on_cta_flushed(*this, launch, index);
}

void Sm::restore_cta(KernelLaunch& launch, std::unique_ptr<SavedCta> saved) {
    uint32_t cslot = 0;
    while (m_ctas[cslot].used) ++cslot;
    CtaSlot& cta = m_ctas[cslot];
    cta = saved->cta;
    cta.used = true;
    cta.launch = &launch;
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
        while (m_warps[slot].used) ++slot;
        Warp& w = m_warps[slot];
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
        m_sched_warps[slot % m_cfg.schedulers].push_back(slot);
    }
    ++m_ctas_restored;
    if (m_observer) emit(SmEventKind::CtaStart, m_clock.cycle(), cslot);
    queue_context(cslot, sim::MemAccess::Read);
    m_clock.activate(*this);
}

}  // namespace stacksim::core
