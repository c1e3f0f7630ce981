// SPDX-License-Identifier: Apache-2.0
// The CTA manager: PEP checkpoints (dirty registers and shared memory, in-place saves).
#include <algorithm>

#include "core/context_region.h"
#include "core/occupancy.h"
#include "core/cta_manager.h"

namespace stacksim::core {

namespace {
/// SIMT stack, PC, predicate and barrier state saved per warp, bytes (as a full switch).
constexpr uint64_t kWarpControlBytes = 64;

uint64_t count_bits(const std::vector<uint64_t>& v) {
    uint64_t n = 0;
    for (uint64_t w : v) n += static_cast<uint64_t>(__builtin_popcountll(w));
    return n;
}
}  // namespace

void CtaManager::reset_checkpoints(CtaSlot& cta) {
    const uint32_t blocks = (cta.launch->shared_bytes + kSmemDirtyBlockBytes - 1) / kSmemDirtyBlockBytes;
    cta.ckpt = CtaCheckpoints{};
    cta.ckpt.smem_dirty.assign((blocks + 63) / 64, 0);
    cta.ckpt.smem_saved.assign((blocks + 63) / 64, 0);
    if (m_arm_at) {
        cta.ckpt.checkpoint_at = m_arm_at;
        cta.ckpt.armed_start = true;
        cta.ckpt.counters = m_arm_counters;
    }
}

void CtaManager::arm_checkpoints(uint64_t instructions, CheckpointCounters* c) {
    m_arm_at = instructions;
    m_arm_counters = c;
    if (instructions) return;
    for (CtaSlot& cta : m_ctas) cta.ckpt.checkpoint_at = 0;  // no first checkpoints any more
}

void CtaManager::mark_shared_stores(CtaSlot& cta, const ExecResult& r) {
    auto& bits = cta.ckpt.smem_dirty;
    const uint64_t limit = uint64_t{bits.size()} * 64;
    const uint64_t bytes = r.access_bytes ? r.access_bytes : 4;
    for (uint32_t m = r.active_mask; m; m &= m - 1) {
        const uint64_t a = r.addr[static_cast<unsigned>(__builtin_ctz(m))];
        for (uint64_t b = a / kSmemDirtyBlockBytes; b <= (a + bytes - 1) / kSmemDirtyBlockBytes && b < limit; ++b)
            bits[b / 64] |= uint64_t{1} << (b % 64);
    }
}

uint64_t CtaManager::checkpoint_bytes(uint32_t slot, bool saved) const {
    const CtaSlot& cta = m_ctas[slot];
    const KernelLaunch& l = *cta.launch;
    // A warp's registers in the register file, and the register ids they hold: a dirty
    // fraction of the ids is that fraction of the bytes (PTX virtual registers outnumber
    // the physical ones the occupancy allocates).
    const uint64_t warp_bytes = uint64_t{registers_per_warp(l.regs_per_thread)} * 4;
    const uint32_t ids = std::max<uint32_t>(1, l.trace ? l.trace->num_regs : l.kernel->num_regs);
    uint64_t bytes = kWarpControlBytes * cta.warps_live;
    for (uint32_t s = 0; s < m_pipe.warp_slots(); ++s) {
        const Warp& w = m_pipe.warp(s);
        if (!w.used || w.finished || w.cta_slot != slot) continue;
        const uint32_t n = std::min(ids, count_registers(saved ? w.saved : w.dirty));
        bytes += (warp_bytes * n + ids - 1) / ids;
    }
    // Shared memory: the dirty blocks when tracked, else all of it (the thesis's rule).
    const uint64_t blocks = count_bits(saved ? cta.ckpt.smem_saved : cta.ckpt.smem_dirty);
    bytes += m_track_shared ? std::min<uint64_t>(l.shared_bytes, blocks * kSmemDirtyBlockBytes) : l.shared_bytes;
    return bytes;
}

void CtaManager::checkpoint_cta(uint32_t slot, const CheckpointOrder& o) {
    CtaSlot& cta = m_ctas.at(slot);
    if (!cta.used) throw std::logic_error("CtaManager::checkpoint_cta: CTA slot is empty");
    cta.ckpt.counters = o.counters;
    if (cta.state != CtaState::Running) {
        if (!o.resume && cta.ckpt.resume) cta.ckpt.leave_after = true;  // in its first checkpoint
        else throw std::logic_error("CtaManager::checkpoint_cta: CTA slot is not running");
        return;
    }
    cta.ckpt.resume = o.resume;
    cta.ckpt.dirty_only = true;
    if (o.resume) cta.ckpt.checkpoint_at = 0;
    stop_cta(slot, true);
    if (!o.resume && m_observer) emit(SmEventKind::CtaEnd, slot);
    m_pipe.wake();
}

void CtaManager::start_checkpoint_save(uint32_t slot) {
    CtaSlot& cta = m_ctas[slot];
    CtaCheckpoints& k = cta.ckpt;
    cta.state = CtaState::Saving;
    const uint64_t bytes = checkpoint_bytes(slot, false);
    const uint64_t full = context_bytes(cta);
    for (uint32_t s = 0; s < m_pipe.warp_slots(); ++s) {
        Warp& w = m_pipe.warp(s);
        if (!w.used || w.cta_slot != slot) continue;
        for (size_t i = 0; i < w.dirty.size(); ++i) w.saved[i] |= w.dirty[i];
        w.dirty = {};
    }
    for (size_t i = 0; i < k.smem_dirty.size(); ++i) k.smem_saved[i] |= k.smem_dirty[i];
    std::fill(k.smem_dirty.begin(), k.smem_dirty.end(), 0);
    k.union_bytes = checkpoint_bytes(slot, true);
    // Only the last checkpoint (the one the CTA leaves with) may stay in the SM.
    const bool in_place = !k.resume && bytes <= m_inplace_left;
    if (in_place) m_inplace_left -= bytes;
    k.newest_inplace = in_place ? bytes : 0;
    k.newest_dram = in_place ? 0 : bytes;
    const uint64_t region = context_region(m_id, slot, m_cfg.context_stagger_bytes, m_cfg.context_stagger_steps);
    if (k.taken == 0) k.next_offset = 0;
    if (k.taken == 0) cta.context_addr = region;
    if (k.next_offset + k.newest_dram > context_region_bytes(cta.context_addr)) k.next_offset = 0;
    k.newest_addr = cta.context_addr + k.next_offset;
    k.next_offset += (k.newest_dram + m_cfg.line_bytes - 1) / m_cfg.line_bytes * m_cfg.line_bytes;
    if (CheckpointCounters* c = k.counters) {
        if (k.resume) {
            ++c->first;
            c->first_bytes += bytes;
        } else {
            ++(k.taken > 0 ? c->second : c->single);
            c->second_bytes += bytes;
            c->full_bytes += full;
        }
        c->dram_bytes += k.newest_dram;
        c->inplace_bytes += k.newest_inplace;
    }
    ++k.taken;
    begin_context_write(cta);
    cta.context_bytes = k.newest_dram;
    const uint64_t lines = m_pipe.queue_context(slot, k.newest_addr, k.newest_dram, sim::MemAccess::Write);
    cta.context_outstanding = static_cast<uint32_t>(lines);
    if (lines == 0) context_done(slot);
}

void CtaManager::finish_checkpoint(uint32_t slot) {
    CtaSlot& cta = m_ctas[slot];
    CtaCheckpoints& k = cta.ckpt;
    if (k.counters) k.counters->first_cycles += m_clock.cycle() - cta.preempt_cycle;
    k.resume = false;
    if (k.leave_after) {
        // The request came while the first checkpoint was being written: save what changed
        // since it (the pipeline is drained already).
        k.leave_after = false;
        if (m_observer) emit(SmEventKind::CtaEnd, slot);
        start_checkpoint_save(slot);
        return;
    }
    cta.state = CtaState::Running;
    cta.switch_out = false;
    k.dirty_only = false;
    --m_preempting;
    for (uint32_t s = 0; s < m_pipe.warp_slots(); ++s) {
        Warp& w = m_pipe.warp(s);
        if (w.used && w.cta_slot == slot && !w.finished) {
            w.ibuffer.flush();
            w.fetch_pc = w.stack.pc();
        }
    }
    m_pipe.wake();
    CtaEvent e;
    e.kind = CtaEventKind::Checkpointed;
    e.launch = cta.launch;
    e.cta_index = cta.cta_index;
    report(std::move(e));
}

void CtaManager::start_due_checkpoints() {
    m_checkpoint_due = false;
    for (uint32_t c = 0; c < m_ctas.size(); ++c) {
        CtaSlot& cta = m_ctas[c];
        if (!cta.used || cta.state != CtaState::Running || !cta.ckpt.checkpoint_at) continue;
        if (cta.warp_instructions < cta.ckpt.checkpoint_at) continue;
        CheckpointOrder o;
        o.resume = true;
        o.counters = cta.ckpt.counters;
        checkpoint_cta(c, o);
    }
}

}  // namespace stacksim::core
