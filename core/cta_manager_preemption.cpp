// SPDX-License-Identifier: Apache-2.0
// The CTA manager: taking CTAs off (context switch, flush) and the context traffic of restores.
#include <algorithm>

#include "core/context_region.h"
#include "core/occupancy.h"
#include "core/cta_manager.h"

namespace stacksim::core {

namespace {
/// SIMT stack, PC, predicate and barrier state saved per warp, bytes.
constexpr uint64_t kWarpControlBytes = 64;
}  // namespace

uint64_t CtaManager::context_bytes(const CtaSlot& cta) const {
    const KernelLaunch& l = *cta.launch;
    const uint64_t warps = cta.warps_live;
    return uint64_t{registers_per_warp(l.regs_per_thread)} * warps * 4 + l.shared_bytes + kWarpControlBytes * warps;
}

bool CtaManager::only_runs(const KernelLaunch& launch) const {
    for (const CtaSlot& cta : m_ctas)
        if (cta.used && cta.launch != &launch) return false;
    return true;
}

std::vector<ResidentCta> CtaManager::resident_ctas() const {
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

void CtaManager::preempt_cta(uint32_t slot, PreemptTechnique t) {
    if (t == PreemptTechnique::Drain) return;
    CtaSlot& cta = m_ctas.at(slot);
    if (!cta.used || cta.state != CtaState::Running)
        throw std::logic_error("CtaManager::preempt_cta: CTA slot is not running");
    stop_cta(slot, t == PreemptTechnique::Switch);
    if (m_observer) emit(SmEventKind::CtaEnd, slot);
    m_pipe.wake();
}

void CtaManager::stop_cta(uint32_t slot, bool switch_out) {
    CtaSlot& cta = m_ctas[slot];
    cta.state = CtaState::Stopping;
    cta.switch_out = switch_out;
    cta.preempt_cycle = m_clock.cycle();
    ++m_preempting;
    m_pipe.stop_cta_fetch(slot);
}

void CtaManager::progress_preemption() {
    for (uint32_t c = 0; c < m_ctas.size() && m_preempting; ++c) {
        CtaSlot& cta = m_ctas[c];
        if (!cta.used || cta.state != CtaState::Stopping) continue;
        // A switch waits for every result (registers are saved); a flush only for the memory
        // requests it has in flight (their payloads and responses must come back).
        if (!m_pipe.drained(c, cta.switch_out)) continue;
        m_pipe.note_progress();
        if (cta.switch_out) m_pipeline_drain_cycles += m_clock.cycle() - cta.preempt_cycle;
        if (cta.switch_out && cta.ckpt.dirty_only) {
            start_checkpoint_save(c);
        } else if (cta.switch_out) {
            cta.state = CtaState::Saving;
            cta.context_bytes = context_bytes(cta);
            cta.context_addr = context_region(m_id, c, m_cfg.context_stagger_bytes, m_cfg.context_stagger_steps);
            begin_context_write(cta);
            queue_context(c, sim::MemAccess::Write);
        } else {
            cta.state = CtaState::Flushing;
            finish_flush(c);
        }
    }
}

void CtaManager::begin_context_write(CtaSlot& cta) {
    ++m_context_writes;
    cta.write_cycle = m_clock.cycle();
}

void CtaManager::queue_context(uint32_t slot, sim::MemAccess access) {
    CtaSlot& cta = m_ctas[slot];
    uint64_t lines = 0;
    if (access == sim::MemAccess::Read && cta.ckpt.taken > 0) {
        // Newest checkpoint first, then what only older checkpoints hold.
        const uint64_t newest = std::min(cta.ckpt.newest_dram, cta.context_bytes);
        lines = m_pipe.queue_context(slot, cta.ckpt.newest_addr, newest, access);
        lines += m_pipe.queue_context(slot, cta.context_addr, cta.context_bytes - newest, access);
    } else {
        lines = m_pipe.queue_context(slot, cta.context_addr, cta.context_bytes, access);
    }
    cta.context_outstanding = static_cast<uint32_t>(lines);
    if (lines == 0) context_done(slot);
}

void CtaManager::context_response(uint32_t slot) {
    ++m_epoch;
    CtaSlot& cta = m_ctas[slot];
    if (--cta.context_outstanding == 0) context_done(slot);
}

void CtaManager::context_done(uint32_t slot) {
    CtaSlot& cta = m_ctas[slot];
    m_pipe.note_progress();
    if (cta.state == CtaState::Restoring) {
        if (m_observer) emit(SmEventKind::CtaRestored, slot);
        cta.state = CtaState::Running;
        m_context_restored += cta.context_bytes;
        m_restore_cycles += m_clock.cycle() - cta.preempt_cycle;
        if (cta.ckpt.counters) cta.ckpt.counters->restore_bytes += cta.context_bytes;
        return;
    }
    m_context_write_cycles += m_clock.cycle() - cta.write_cycle;
    if (cta.ckpt.resume) {
        finish_checkpoint(slot);
        return;
    }
    finish_save(slot);
}

void CtaManager::release_cta(uint32_t slot) {
    CtaSlot& cta = m_ctas[slot];
    const KernelLaunch& launch = *cta.launch;
    for (uint32_t s = 0; s < m_pipe.warp_slots(); ++s) {
        const Warp& w = m_pipe.warp(s);
        if (w.used && w.cta_slot == slot) m_pipe.detach_warp(s);
    }
    cta.used = false;
    m_threads_used -= launch.warps_per_cta() * kWarpSize;
    m_regs_used -= cta.registers;
    m_smem_used -= launch.shared_bytes;
    --m_ctas_running;
    --m_preempting;
}

void CtaManager::finish_save(uint32_t slot) {
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
    for (uint32_t s = 0; s < m_pipe.warp_slots(); ++s) {
        const Warp& w = m_pipe.warp(s);
        if (w.used && w.cta_slot == slot) order.push_back({w.ctx.warp_in_cta, s});
    }
    std::sort(order.begin(), order.end());
    for (auto& [wi, s] : order) saved->warps.push_back(m_pipe.warp(s));
    if (m_observer) emit(SmEventKind::CtaSaved, slot);
    ++m_ctas_switched;
    m_context_saved += cta.context_bytes;
    m_save_cycles += m_clock.cycle() - cta.preempt_cycle;
    const uint64_t index = cta.cta_index;
    release_cta(slot);
    CtaEvent e;
    e.kind = CtaEventKind::Saved;
    e.launch = &launch;
    e.cta_index = index;
    e.saved = std::move(saved);
    report(std::move(e));
}

void CtaManager::finish_flush(uint32_t slot) {
    CtaSlot& cta = m_ctas[slot];
    KernelLaunch& launch = *cta.launch;
    const uint64_t index = cta.cta_index;
    if (m_observer) emit(SmEventKind::CtaFlushed, slot);
    ++m_ctas_flushed;
    m_flushed_instructions += cta.warp_instructions;
    m_flushed_cycles += cta.prior_cycles + (m_clock.cycle() - cta.start_cycle);
    release_cta(slot);
    CtaEvent e;
    e.kind = CtaEventKind::Flushed;
    e.launch = &launch;
    e.cta_index = index;
    report(std::move(e));
}

}  // namespace stacksim::core
