// SPDX-License-Identifier: Apache-2.0
// Streaming multiprocessor: executing issued instructions, fetch, and memory requests.
#include <fmt/format.h>

#include <algorithm>

#include "core/calls.h"
#include "core/functional_executor.h"
#include "core/kernel_launch.h"
#include "common/context_extension.h"
#include "common/instruction_extension.h"
#include "core/sm.h"
#include "sim/error.h"

namespace stacksim::core {

void Sm::execute_and_retire(Warp& w, uint32_t slot, const Instruction& inst, uint64_t cycle,
                            Pipe& pipe, size_t unit) {
    ExecResult& r = m_result;
    const uint32_t pc = w.stack.pc();
    const uint32_t mask = w.stack.mask();
    w.ctx.clock = cycle;
    r.space = StateSpace::None;
    r.is_load = r.is_store = r.is_atomic = false;
    if (w.trace) {
        replay_trace(w.trace->insts[pc], *w.trace, r);
    } else {
        try {
            execute(inst, w.ctx, mask, r);
        } catch (const ExecError& e) {
            throw sim::SimulationError(fmt::format("{} (SM {}, warp {})", e.what(), m_id, slot));
        }
        if (r.sleep_ns) {  // nanosleep: nothing of this warp becomes ready to issue before the end
            w.sleep_until = cycle + (uint64_t{r.sleep_ns} * 1000 + m_clock.period_ps() - 1) / m_clock.period_ps();
            w.ibuffer.delay_until(w.sleep_until);
        }
        if (watched(slot))
            m_observer->on_execute({m_id, slot, m_ctas.cta(w.cta_slot).launch, w.ctx.cta->ctaid, w.ctx.warp_in_cta, pc, mask, &inst, &r});
    }
    ++m_issued_insts;
    m_ctas.count_instruction(w, inst);
    if (inst.unit() == UnitClass::Fp64) ++m_fp64_insts;
    if (inst.unit() == UnitClass::Sfu) ++m_sfu_insts;
    const uint64_t operands_ready = m_collector.collect(inst, slot, cycle);
    // SIMT-active lanes, predication aside (a trace records the executing lanes only).
    m_thread_insts += static_cast<uint64_t>(__builtin_popcount(w.trace ? r.active_mask : mask));

    const bool memory = r.space == StateSpace::Global || r.space == StateSpace::Shared || r.space == StateSpace::Local;
    m_last_long = memory && r.space != StateSpace::Shared && inst.num_writes > 0;
    if (memory) {
        issue_memory(w, slot, inst, r, cycle, operands_ready, pipe, unit);
    } else if (inst.num_writes) {
        uint64_t latency = (inst.space == StateSpace::Param && inst.mode != kParamFrame) || inst.space == StateSpace::Const
                               ? constant_latency(w, inst)
                               : pipe.latency;
        w.scoreboard.reserve(inst, false);
        for (unsigned i = 0; i < inst.num_writes; ++i)
            m_writebacks.push({operands_ready + latency, slot, w.generation, inst.writes[i]});
    }

    if (w.trace) {
        // Timing only: the trace fixed each instruction's lanes; walk it in order. An EXIT's
        // mask holds the lanes that leave; the warp ends when none remain or the trace ends.
        const bool last = pc + 1 >= w.code_size;
        if (inst.control() == ControlKind::Exit) w.stack.exit(r.active_mask);
        if (!w.stack.empty()) {
            if (last) {
                w.stack.exit(w.stack.mask());
            } else {
                if (inst.control() == ControlKind::Barrier) arrive_at_barrier(w);
                w.stack.advance(pc + 1);
            }
        }
    } else {
        const size_t depth_before = w.stack.depth();
        switch (inst.control()) {
        case ControlKind::Branch:
            ++m_branches;
            if (w.stack.branch(pc, inst.target, inst.reconv_pc, r.taken_mask)) {
                ++m_divergent_branches;
                if (watched(slot))
                    emit(SmEventKind::Diverge, cycle, slot, pc, r.taken_mask & mask, mask & ~r.taken_mask,
                         inst.reconv_pc, 0, &inst);
            }
            break;
        case ControlKind::Exit: {
            uint32_t remaining = mask & ~r.active_mask;
            w.stack.exit(r.active_mask);
            if (!w.ctx.calls.frames.empty()) sync_call_frames(w.stack, w.ctx);
            if (remaining) w.stack.advance(pc + 1);
            break;
        }
        case ControlKind::Call: enter_call(w.stack, w.ctx, inst, pc, r); break;
        case ControlKind::Return: {
            const uint32_t remaining = mask & ~r.active_mask;
            return_from_call(w.stack, w.ctx, r.active_mask);
            if (remaining) w.stack.advance(pc + 1);
            break;
        }
        case ControlKind::Barrier:
            w.stack.advance(pc + 1);
            arrive_at_barrier(w);
            break;
        case ControlKind::None: w.stack.advance(pc + 1); break;
        }
        if (watched(slot) && !w.stack.empty() && w.stack.depth() < depth_before &&
            inst.control() != ControlKind::Exit)
            emit(SmEventKind::Reconverge, cycle, slot, w.stack.pc(), w.stack.mask());
    }

    if (w.stack.empty()) {
        warp_finished(slot);
        return;
    }
    // Control flow left the fetched sequence: refetch from the new PC.
    if (w.ibuffer.empty() || w.ibuffer.head_pc() != w.stack.pc()) {
        w.ibuffer.flush();
        w.fetch_pc = w.stack.pc();
        w.fetch_wait_line = Warp::kNoLine;  // the new PC may lie in another line
    }
}

void Sm::replay_trace(const TraceInstruction& t, const WarpTrace& trace, ExecResult& r) const {
    r.active_mask = t.active_mask;
    r.taken_mask = 0;
    if (t.addr_index == kNoAddresses) return;
    r.space = t.inst->space == StateSpace::Shared ? StateSpace::Shared : StateSpace::Global;
    r.is_load = t.is_load;
    r.is_store = t.is_store;
    r.is_atomic = t.is_atomic;
    r.access_bytes = t.access_bytes;
    uint32_t i = t.addr_index;
    for (uint32_t m = t.active_mask; m; m &= m - 1) r.addr[static_cast<unsigned>(__builtin_ctz(m))] = trace.addresses[i++];
}

void Sm::arrive_at_barrier(Warp& w) {
    CtaSlot& cta = m_ctas.cta(w.cta_slot);
    w.at_barrier = true;
    if (m_observer) {
        uint32_t slot = static_cast<uint32_t>(&w - m_warps.data());
        if (watched(slot)) emit(SmEventKind::BarrierArrive, m_clock.cycle(), slot, w.stack.pc(), w.stack.mask());
    }
    if (++cta.barrier_arrived >= cta.warps_live) release_barrier(cta);
}

uint32_t Sm::bank_conflict_degree(const ExecResult& r) {
    // Lanes touching different 4-byte words of the same bank serialise; the same word is
    // broadcast. Degree = the largest number of distinct words any bank must serve.
    const uint32_t banks = m_cfg.shared_memory_banks;
    if (r.access_bytes <= 4 && banks <= 64) {
        // The common cases first: one word per lane and, in every bank, one distinct word
        // (lanes in their own banks, or a broadcast): degree 1.
        uint64_t used = 0;
        uint64_t first[64];
        bool single = true;
        for (uint32_t m = r.active_mask; m && single; m &= m - 1) {
            const uint64_t word = r.addr[static_cast<unsigned>(__builtin_ctz(m))] / 4;
            const uint32_t bank = static_cast<uint32_t>(word % banks);
            if (used >> bank & 1) {
                single = first[bank] == word;
            } else {
                used |= uint64_t{1} << bank;
                first[bank] = word;
            }
        }
        if (single) return 1;
    }
    // Each bank's list holds at most 4 words per lane (16-byte accesses).
    if (m_bank_words.size() < size_t{banks} * kWarpSize * 4) m_bank_words.resize(size_t{banks} * kWarpSize * 4);
    m_bank_fill.assign(banks, 0);
    uint32_t degree = 1;
    const uint32_t words_per_lane = std::max<uint32_t>(1, r.access_bytes / 4);
    for (uint32_t m = r.active_mask; m; m &= m - 1) {
        uint32_t lane = static_cast<uint32_t>(__builtin_ctz(m));
        for (uint32_t k = 0; k < words_per_lane; ++k) {
            uint64_t word = r.addr[lane] / 4 + k;
            uint32_t bank = static_cast<uint32_t>(word % banks);
            uint64_t* list = &m_bank_words[size_t{bank} * kWarpSize * 4];
            uint8_t& n = m_bank_fill[bank];
            bool seen = false;
            for (uint8_t i = 0; i < n; ++i) seen |= list[i] == word;
            if (!seen) {
                list[n++] = word;
                degree = std::max<uint32_t>(degree, n);
            }
        }
    }
    return degree;
}

void Sm::issue_memory(Warp& w, uint32_t slot, const Instruction& inst, const ExecResult& r,
                      uint64_t cycle, uint64_t operands_ready, Pipe& pipe, size_t unit) {
    const bool has_result = inst.num_writes > 0;
    if (r.space == StateSpace::Shared) {
        ++m_shared_accesses;
        m_ctas.shared_access(w.cta_slot, r);
        uint32_t degree = r.active_mask ? bank_conflict_degree(r) : 1;
        m_bank_conflict_cycles += degree - 1;
        pipe.next_free[unit] = cycle + uint64_t{degree} * pipe.ii;
        if (has_result) {
            w.scoreboard.reserve(inst, true);
            for (unsigned i = 0; i < inst.num_writes; ++i)
                m_writebacks.push({operands_ready + m_cfg.shared_memory_latency + degree - 1, slot,
                                   w.generation, inst.writes[i]});
        }
        return;
    }
    // Local memory is device memory interleaved per thread: it takes the global path.
    if (r.space == StateSpace::Local) ++(r.is_store ? m_local_stores : m_local_loads);
    // Global: coalesce lanes into line requests with sector masks, in order of first lane.
    struct Line {
        uint64_t addr;
        uint32_t sectors;
    };
    std::array<Line, kWarpSize * 2> lines;
    size_t nlines = 0;
    const uint64_t line_bytes = m_cfg.line_bytes;
    const uint64_t sector_bytes = m_cfg.sector_bytes;
    auto touch = [&](uint64_t a, uint64_t bytes) {
        uint64_t base = a & ~(line_bytes - 1);
        uint64_t first = (a - base) / sector_bytes;
        uint64_t last = (a + bytes - 1 - base) / sector_bytes;
        uint32_t mask = 0;
        for (uint64_t s = first; s <= last; ++s) mask |= 1u << s;
        for (size_t i = 0; i < nlines; ++i)
            if (lines[i].addr == base) {
                lines[i].sectors |= mask;
                return;
            }
        lines[nlines++] = {base, mask};
    };
    for (uint32_t m = r.active_mask; m; m &= m - 1) {
        uint32_t lane = static_cast<uint32_t>(__builtin_ctz(m));
        uint64_t a = r.addr[lane];
        uint64_t bytes = r.access_bytes ? r.access_bytes : 4;
        uint64_t in_line = line_bytes - (a & (line_bytes - 1));
        if (bytes <= in_line) {
            touch(a, bytes);
        } else {  // a misaligned access that straddles two lines
            touch(a, in_line);
            touch(a + in_line, bytes - in_line);
        }
    }
    if (nlines == 0) return;
    ++m_global_mem_insts;
    m_coalesced_lines += nlines;
    uint32_t op = kNoOp;
    if (has_result) {
        w.scoreboard.reserve(inst, true);
        if (m_free_loads.empty()) {
            m_free_loads.push_back(static_cast<uint32_t>(m_loads.size()));
            m_loads.push_back({});
        }
        op = m_free_loads.back();
        m_free_loads.pop_back();
        m_loads[op] = {slot, static_cast<uint32_t>(nlines), &inst};
        ++w.pending_loads;
    }
    sim::MemAccess access = r.is_atomic ? sim::MemAccess::Atomic
                            : r.is_store ? sim::MemAccess::Write
                                         : sim::MemAccess::Read;
    for (size_t i = 0; i < nlines; ++i) {
        uint32_t bytes = static_cast<uint32_t>(__builtin_popcount(lines[i].sectors) * sector_bytes);
        m_outgoing.push_back({lines[i].addr, bytes, lines[i].sectors, slot, op, access});
    }
    w.pending_mem += static_cast<uint32_t>(nlines);
    m_in_flight += static_cast<uint32_t>(nlines);
}

void Sm::send_requests(uint64_t cycle) {
    for (uint32_t n = 0; n < m_cfg.requests_per_cycle && !m_outgoing.empty() && downstream.can_send(); ++n) {
        const MemRequest& rq = m_outgoing.front();
        tlm::tlm_generic_payload& p = m_pool.acquire();
        p.set_address(rq.line_addr);
        p.set_data_length(rq.bytes);
        p.set_command(rq.access == sim::MemAccess::Read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
        sim::MemExtension& e = sim::PayloadPool::ext(p);
        e.source = m_id;
        e.warp = rq.warp;
        e.tag = rq.op;
        e.sector_mask = rq.sector_mask;
        e.issue_cycle = cycle;
        e.access = rq.access;
        e.traffic = rq.traffic;
        m_outgoing.pop_front();
        ++m_mem_requests;
        m_progress = true;
        downstream.send(p);  // a withheld END_REQ stops the loop (can_send)
    }
}

void Sm::stop_fetch(bool stop) {
    if (stop == m_fetch_stopped) return;
    m_fetch_stopped = stop;
    if (!stop) {
        ++m_fetch_changes;
        m_clock.activate(*this);
    }
}

void Sm::fetch(uint64_t cycle) {
    if (m_fetch_stopped) return;
    if (m_fetch_idle && m_fetch_idle_changes == m_fetch_changes && m_fetch_idle_epoch == m_ctas.epoch()) return;
    // One warp fetches per cycle, round robin over warp slots with room in the I-buffer.
    const uint32_t n = static_cast<uint32_t>(m_warps.size());
    uint32_t slot = m_fetch_rr >= n ? m_fetch_rr % n : m_fetch_rr;
    for (uint32_t i = 0; i < n; ++i, slot = slot + 1 == n ? 0 : slot + 1) {
        Warp& w = m_warps[slot];
        if (!w.used || w.finished || w.ibuffer.size() >= m_cfg.ibuffer_entries) continue;
        if (w.fetch_wait_line != Warp::kNoLine) continue;  // its line is on its way from memory
        if (m_ctas.cta(w.cta_slot).state != CtaState::Running) continue;
        uint32_t pc = w.ibuffer.empty() ? w.fetch_pc : w.ibuffer.next_pc();
        if (pc >= w.code_size) continue;  // fetched up to the end of the code
        const uint32_t first = pc;
        for (uint32_t f = 0; f < m_cfg.fetch_width && w.ibuffer.size() < m_cfg.ibuffer_entries &&
                             pc < w.code_size; ++f, ++pc) {
            const uint64_t ready = fetch_ready(w, pc, cycle);
            if (ready == kFillPending) break;
            w.ibuffer.push(pc, std::max(ready, w.sleep_until));
        }
        if (pc == first) continue;  // a miss on its first instruction: the next warp may fetch
        touch_warp(slot);
        if (watched(slot)) emit(SmEventKind::Fetch, cycle, slot, first, 0, pc - first);
        m_fetch_rr = (slot + 1) % n;
        m_progress = true;
        m_fetch_idle = false;
        return;
    }
    // Nothing to fetch; a scan finds nothing until one of the changes above (a failed scan
    // leaves each warp waiting on something only those changes end).
    m_fetch_idle = true;
    m_fetch_idle_changes = m_fetch_changes;
    m_fetch_idle_epoch = m_ctas.epoch();
}

uint64_t Sm::fetch_ready(Warp& w, uint32_t pc, uint64_t cycle) {
    // Each kernel's code sits in its own 16 MB window, shared by all launches of that code
    // (a relaunch hits what the previous launch fetched); traces give their own PCs.
    const KernelLaunch& launch = *m_ctas.cta(w.cta_slot).launch;
    uint64_t addr = w.trace ? w.trace->insts[pc].pc : uint64_t{pc} * m_cfg.instruction_bytes;
    addr += uint64_t{launch.code_id} << 24;
    const uint64_t line = m_icache.line_of(addr);
    uint64_t ready = cycle + m_cfg.fetch_latency;
    if (m_cfg.perfect_inst_const_cache) {
        ++m_icache_hits;
        return ready;
    }
    const bool from_memory = m_cfg.icache_fill == IcacheFill::Memory;
    if (m_icache.lookup(line)) {
        auto fill = m_icache_fills.find(line);
        if (fill == m_icache_fills.end()) {
            ++m_icache_hits;
            return ready;
        }
        if (fill->second <= cycle) {  // kFillPending never is
            m_icache_fills.erase(fill);
            ++m_icache_hits;
            return ready;
        }
        ++m_icache_misses;  // the line is on its way
        if (from_memory) {
            w.fetch_wait_line = line;
            return kFillPending;
        }
        return std::max(ready, fill->second);
    }
    ++m_icache_misses;
    m_icache.fill(line, 1);
    if (from_memory) {
        // One read of the line from the code area; the warp fetches again when it returns.
        m_icache_fills[line] = kFillPending;
        w.fetch_wait_line = line;
        const uint64_t phys = common::kCodeAreaBase + line;
        const uint64_t mem_line = phys & ~uint64_t{m_cfg.line_bytes - 1};
        const uint32_t first = static_cast<uint32_t>((phys - mem_line) / m_cfg.sector_bytes);
        const uint32_t count = m_cfg.icache_line_bytes / m_cfg.sector_bytes;
        const uint32_t mask = (count >= 32 ? ~0u : (1u << count) - 1) << first;
        m_outgoing.push_back({mem_line, m_cfg.icache_line_bytes, mask, static_cast<uint32_t>(&w - m_warps.data()),
                              kNoOp, sim::MemAccess::Read, sim::TrafficClass::Instruction});
        return kFillPending;
    }
    uint64_t done = cycle + m_cfg.icache_miss_latency;
    m_icache_fills[line] = done;
    return std::max(ready, done);
}

void Sm::fetch_response(uint64_t addr) {
    // The payload carries the memory line; the I-cache line sits at the code-space address.
    for (auto it = m_icache_fills.begin(); it != m_icache_fills.end();) {
        const uint64_t phys = common::kCodeAreaBase + it->first;
        if (it->second == kFillPending && (phys & ~uint64_t{m_cfg.line_bytes - 1}) == addr) {
            for (Warp& w : m_warps)
                if (w.fetch_wait_line == it->first) w.fetch_wait_line = Warp::kNoLine;
            it = m_icache_fills.erase(it);
        } else {
            ++it;
        }
    }
    ++m_fetch_changes;
    m_progress = true;
}

uint64_t Sm::constant_latency(const Warp& w, const Instruction& inst) {
    if (inst.space == StateSpace::Const) {
        // Module __constant__ data: one access when every lane reads one address (broadcast),
        // serialised per distinct address otherwise (CUDA C++ Programming Guide, "Constant
        // Memory"); each access hits or misses the constant cache like a parameter read.
        // Tagged apart from the parameter banks.
        uint64_t seen[kWarpSize];
        unsigned distinct = 0;
        uint64_t latency = 0;
        for (uint32_t m = m_result.active_mask; m; m &= m - 1) {
            const uint64_t a = m_result.addr[__builtin_ctz(m)] | (uint64_t{1} << 63);
            if (std::find(seen, seen + distinct, a) != seen + distinct) continue;
            seen[distinct++] = a;
            if (m_const_cache.lookup(a)) {
                ++m_const_hits;
                latency += m_cfg.const_cache_latency;
            } else {
                ++m_const_misses;
                m_const_cache.fill(a, 1);
                latency += m_cfg.const_miss_latency;
            }
        }
        return latency ? latency : m_cfg.const_cache_latency;
    }
    // Each launch has its own parameter bank; the operand's offset is the address within it.
    uint64_t addr = (uint64_t{m_ctas.cta(w.cta_slot).launch->id} << 20) + (inst.num_src ? inst.src[0].imm : 0);
    if (m_cfg.perfect_inst_const_cache || m_const_cache.lookup(addr)) {
        ++m_const_hits;
        return m_cfg.const_cache_latency;
    }
    ++m_const_misses;
    m_const_cache.fill(addr, 1);
    return m_cfg.const_miss_latency;
}

void Sm::release_barrier(CtaSlot& cta) {
    cta.barrier_arrived = 0;
    for (uint32_t slot = 0; slot < m_warps.size(); ++slot) {
        Warp& w = m_warps[slot];
        if (!w.used || &m_ctas.cta(w.cta_slot) != &cta || !w.at_barrier) continue;
        w.at_barrier = false;
        touch_warp(slot);
        finish_barrier_reduction(w.ctx);
        if (watched(slot)) emit(SmEventKind::BarrierRelease, m_clock.cycle(), slot, w.stack.empty() ? 0 : w.stack.pc());
    }
    cta.ctx.bar_red = {};
}

void Sm::warp_finished(uint32_t slot) {
    Warp& w = m_warps[slot];
    w.finished = true;
    w.dirty = {};
    if (watched(slot)) emit(SmEventKind::WarpExit, m_clock.cycle(), slot);
    w.ibuffer.flush();
    touch_warp(slot);
    auto& list = m_sched_warps[slot % m_cfg.schedulers];
    list.erase(std::find(list.begin(), list.end(), slot));
    CtaSlot& cta = m_ctas.cta(w.cta_slot);
    --cta.warps_live;
    if (cta.warps_live > 0 && cta.barrier_arrived >= cta.warps_live) release_barrier(cta);
    if (w.pending_mem == 0) free_warp(slot);
}

void Sm::free_warp(uint32_t slot) {
    Warp& w = m_warps[slot];
    w.used = false;
    m_ctas.warp_freed(w.cta_slot);
}

void Sm::detach_warp(uint32_t slot) {
    Warp& w = m_warps[slot];
    w.used = false;
    ++w.generation;  // writebacks still queued for it are ignored
    touch_warp(slot);
    auto& list = m_sched_warps[slot % m_cfg.schedulers];
    list.erase(std::find(list.begin(), list.end(), slot));
}

void Sm::stop_cta_fetch(uint32_t cta) {
    for (uint32_t slot = 0; slot < m_warps.size(); ++slot) {
        Warp& w = m_warps[slot];
        if (!w.used || w.cta_slot != cta) continue;
        w.ibuffer.flush();
        touch_warp(slot);
    }
}

bool Sm::drained(uint32_t cta, bool registers) const {
    for (const Warp& w : m_warps)
        if (w.used && w.cta_slot == cta && (w.pending_mem || (registers && w.scoreboard.pending_count()))) return false;
    return true;
}

uint64_t Sm::queue_context(uint32_t cta, uint64_t addr, uint64_t total, sim::MemAccess access) {
    const uint64_t line = m_cfg.line_bytes;
    const uint64_t lines = (total + line - 1) / line;
    uint32_t warp = 0;
    while (!(m_warps[warp].used && m_warps[warp].cta_slot == cta)) ++warp;
    for (uint64_t i = 0; i < lines; ++i) {
        const uint64_t bytes = std::min(line, total - i * line);
        const uint32_t sectors = static_cast<uint32_t>((bytes + m_cfg.sector_bytes - 1) / m_cfg.sector_bytes);
        m_outgoing.push_back({addr + i * line, static_cast<uint32_t>(sectors * m_cfg.sector_bytes),
                              sectors >= 32 ? ~0u : (1u << sectors) - 1, warp, cta, access,
                              sim::TrafficClass::Context});
    }
    m_in_flight += static_cast<uint32_t>(lines);
    return lines;
}

std::string Sm::describe_state() const {
    std::string out;
    for (size_t slot = 0; slot < m_warps.size(); ++slot) {
        const Warp& w = m_warps[slot];
        if (!w.used) continue;
        const CtaSlot& cta = m_ctas.cta(w.cta_slot);
        std::string what;
        if (w.finished) what = fmt::format("finished, {} memory requests outstanding", w.pending_mem);
        else if (w.at_barrier) what = fmt::format("at barrier ({} of {} warps arrived)", cta.barrier_arrived, cta.warps_live);
        else if (w.scoreboard.pending_count()) what = fmt::format("{} registers pending", w.scoreboard.pending_count());
        else what = "ready";
        uint32_t pc = w.stack.empty() ? 0 : w.stack.pc();
        out += fmt::format("  {} warp {} (CTA {} of {}): pc {} line {}: {}\n", name(), slot, cta.cta_index,
                           cta.launch->name(), pc, pc < w.code_size ? w.inst(pc).line : 0, what);
    }
    return out;
}

}  // namespace stacksim::core
