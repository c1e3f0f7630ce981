// SPDX-License-Identifier: Apache-2.0
// Streaming multiprocessor: fetch, I-buffer, warp schedulers, scoreboard, SIMT stacks,
// ALU/SFU/LD-ST pipelines and shared memory; global memory through a TLM socket.
#pragma once
#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <queue>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>

#include "core/cta_manager.h"
#include "core/kernel_launch.h"
#include "core/exec_context.h"
#include "core/issue_memo.h"
#include "core/issue_outcome.h"
#include "core/operand_collector.h"
#include "core/sm_activity.h"
#include "core/sm_observer.h"
#include "core/sm_pipeline.h"
#include "common/tag_array.h"
#include "core/sm_config.h"
#include "core/warp.h"
#include "core/warp_scheduler_policy.h"
#include "sim/clock_domain.h"
#include "sim/initiator_port.h"
#include "sim/payload_pool.h"
#include "sim/stats.h"

namespace stacksim::core {

/// One SM. Ticked by the core clock domain only while it has warps that can make progress;
/// sleeps until a writeback, a fetch or a memory response when all its warps wait.
/// Memory protocol on `downstream` (docs/protocol.md): BEGIN_REQ per 128-byte line
/// (MemExtension carries the sector mask), END_REQ may be withheld (back-pressure), BEGIN_RESP
/// for every request. Its CTAs are managed by its CtaManager (cta_manager()), which reaches the
/// pipeline through SmPipeline only.
class Sm : public sc_core::sc_module, public sim::Clocked, public SmActivity, private SmPipeline {
public:
    sim::InitiatorPort downstream;

    /// `policies`: one warp-scheduling policy per scheduler (cfg.schedulers of them).
    Sm(sc_core::sc_module_name name, uint32_t id, const SmConfig& cfg, sim::ClockDomain& clock,
       std::vector<std::unique_ptr<WarpSchedulerPolicy>> policies, sim::StatRegistry& stats);

    /// Attaches an observer (timeline, watch log); null detaches.
    void set_observer(SmObserver* o) {
        m_observer = o;
        m_ctas.set_observer(o);
    }
    /// The SM's CTA slots and their lifecycle (what the CTA scheduler and preemption talk to).
    CtaManager& cta_manager() { return m_ctas; }
    const CtaManager& cta_manager() const { return m_ctas; }
    /// SMs of the GPU, for %nsmid.
    void set_num_sms(uint32_t n) { m_ctas.set_num_sms(n); }

    /// One line per busy warp: what it is waiting on (for the deadlock watchdog).
    std::string describe_state() const;
    // SmActivity
    bool busy() const override { return m_ctas.running() > 0; }
    uint64_t warp_instructions() const override { return m_issued_insts.value(); }
    bool fetch_stopped() const override { return m_fetch_stopped; }
    uint64_t global_memory_instructions() const override { return m_global_mem_insts; }
    uint64_t coalesced_requests() const override { return m_coalesced_lines; }

    bool tick(uint64_t cycle) override;

private:
    struct Writeback {
        uint64_t cycle;
        uint32_t warp;
        uint32_t generation;
        uint16_t reg;
        bool operator>(const Writeback& o) const { return cycle > o.cycle; }
    };
    struct MemRequest {
        uint64_t line_addr;
        uint32_t bytes;
        uint32_t sector_mask;
        uint32_t warp;
        uint32_t op;  ///< pending-load index or kNoOp (Demand); CTA slot (Context)
        sim::MemAccess access;
        sim::TrafficClass traffic = sim::TrafficClass::Demand;
    };
    struct PendingLoad {
        uint32_t warp;
        uint32_t remaining;
        const Instruction* inst;
    };
    struct Pipe {
        std::vector<uint64_t> next_free;  ///< per unit: first cycle it accepts an issue
        uint32_t ii;
        uint32_t latency;
    };
    static constexpr uint32_t kNoOp = 0xFFFFFFFF;
    /// fetch_ready(): the instruction's line is being filled from memory.
    static constexpr uint64_t kFillPending = ~uint64_t{0};

    // SmPipeline (what the CTA manager may ask).
    uint32_t warp_slots() const override { return static_cast<uint32_t>(m_warps.size()); }
    Warp& warp(uint32_t slot) override { return m_warps[slot]; }
    const Warp& warp(uint32_t slot) const override { return m_warps[slot]; }
    void attach_warp(uint32_t slot) override {
        m_sched_warps[slot % m_cfg.schedulers].push_back(slot);
        touch_warp(slot);
    }
    void detach_warp(uint32_t slot) override;
    void finish_warp(uint32_t slot) override { warp_finished(slot); }
    /// A stopped SM issues what its I-buffers hold, finishes its memory requests, then sleeps
    /// (no ticks) until resumed; CTAs stay resident (memory-aware SM throttling, by command).
    void stop_fetch(bool stop) override;
    void stop_cta_fetch(uint32_t cta) override;
    bool drained(uint32_t cta, bool registers) const override;
    uint64_t queue_context(uint32_t cta, uint64_t addr, uint64_t bytes, sim::MemAccess access) override;
    void note_progress() override { m_progress = true; }
    void wake() override { m_clock.activate(*this); }

    void process_responses(uint64_t cycle);
    void process_writebacks(uint64_t cycle);
    void issue(uint64_t cycle);
    IssueOutcome try_issue(uint32_t slot, uint64_t cycle, bool& has_instruction);
    /// Why warp `slot` cannot issue at `cycle` (Issued if it can); picks the unit in `unit`.
    IssueOutcome check_issue(uint32_t slot, uint64_t cycle, bool& has_instruction, size_t& unit);
    void observe_warps(uint64_t cycle);
    void emit(SmEventKind kind, uint64_t cycle, uint32_t warp, uint32_t pc = 0, uint32_t mask = 0,
              uint32_t other = 0, uint32_t reconv = 0, uint8_t reason = 0, const Instruction* inst = nullptr);
    bool watched(uint32_t slot) const { return m_observer && m_observer->watches(m_id, slot); }
    void execute_and_retire(Warp& w, uint32_t slot, const Instruction& inst, uint64_t cycle,
                            Pipe& pipe, size_t unit);
    void issue_memory(Warp& w, uint32_t slot, const Instruction& inst, const ExecResult& r,
                      uint64_t cycle, uint64_t operands_ready, Pipe& pipe, size_t unit);
    uint32_t bank_conflict_degree(const ExecResult& r);
    void replay_trace(const TraceInstruction& t, const WarpTrace& trace, ExecResult& r) const;
    void arrive_at_barrier(Warp& w);
    void fetch(uint64_t cycle);
    /// Cycle the instruction at `pc` is ready in the I-buffer, or kFillPending (memory fills).
    uint64_t fetch_ready(Warp& w, uint32_t pc, uint64_t cycle);
    void fetch_response(uint64_t addr);
    uint64_t constant_latency(const Warp& w, const Instruction& inst);
    void send_requests(uint64_t cycle);
    void warp_finished(uint32_t slot);
    void free_warp(uint32_t slot);
    void release_barrier(CtaSlot& cta);
    Pipe& pipe_for(UnitClass u);
    /// Charges the cycles slept since the last tick (before `cycle`) to what stalled then.
    void account_sleep(uint64_t cycle);
    void note_wake(uint64_t cycle) {
        if (cycle < m_next_wake) m_next_wake = cycle;
    }
    /// Warp `slot` changed in a way its scheduler's issue scan sees: that scheduler scans again.
    void touch_warp(uint32_t slot) { m_memo.touch(slot, slot % m_cfg.schedulers); }
    /// A request in flight ended: lifting the memory throttle may let any scheduler issue.
    void end_in_flight() {
        if (m_in_flight-- >= m_cfg.max_pending_requests) m_memo.invalidate_all();
    }
    /// Warp `slot` could not issue (`o`): remembered when the reason is the warp's own.
    void remember_stall(uint32_t slot, IssueOutcome o, bool has_inst, uint64_t epoch);
    /// Scheduler `s` issued nothing at `cycle`: charges the slot to `outcome` and `charged`.
    void charge_stall(uint32_t s, IssueOutcome outcome, const CtaSlot& charged);

    uint32_t m_id;
    SmConfig m_cfg;
    sim::ClockDomain& m_clock;
    std::vector<std::unique_ptr<WarpSchedulerPolicy>> m_policies;
    sim::PayloadPool m_pool;

    std::vector<Warp> m_warps;
    CtaManager m_ctas;
    std::vector<std::vector<uint32_t>> m_sched_warps;  ///< per scheduler: used warp slots
    uint32_t m_fetch_rr = 0;
    bool m_fetch_stopped = false;
    // Fetch skips its scan while the last one found no warp to fetch and nothing that could
    // let one fetch has happened since: an I-buffer entry left (m_fetch_changes, counted by
    // the I-buffers), an I-cache fill returned, fetch resumed, or the CTAs changed (epoch).
    uint64_t m_fetch_changes = 0;
    bool m_fetch_idle = false;
    uint64_t m_fetch_idle_changes = 0, m_fetch_idle_epoch = 0;
    uint64_t m_global_mem_insts = 0, m_coalesced_lines = 0;  ///< not stats: read by the ETC classifier

    Pipe m_alu, m_fp64, m_sfu, m_ldst, m_ctrl;
    OperandCollector m_collector;
    common::TagArray m_icache;
    std::unordered_map<uint64_t, uint64_t> m_icache_fills;  ///< line -> cycle its fill completes (or kFillPending)
    common::TagArray m_const_cache;
    bool m_last_long = false;  ///< the instruction just issued was a global load
    std::priority_queue<Writeback, std::vector<Writeback>, std::greater<Writeback>> m_writebacks;
    std::deque<MemRequest> m_outgoing;
    std::vector<PendingLoad> m_loads;
    std::vector<uint32_t> m_free_loads;
    uint32_t m_in_flight = 0;            ///< requests queued or awaiting response
    std::vector<tlm::tlm_generic_payload*> m_responses;

    SmObserver* m_observer = nullptr;
    std::vector<uint8_t> m_watch_state;  ///< last reported outcome per watched warp slot
    bool m_progress = false;
    uint64_t m_next_wake = 0;
    std::vector<WarpRef> m_refs;
    std::vector<uint32_t> m_order;
    IssueMemo m_memo;  ///< per scheduler: its last stall, reused while nothing it scans changed
    ExecResult m_result;
    std::vector<uint64_t> m_bank_words;
    std::vector<uint8_t> m_bank_fill;

    // Stats.
    sim::Counter m_issued_insts, m_thread_insts, m_active_cycles, m_divergent_branches,
        m_branches, m_mem_requests, m_shared_accesses, m_local_loads, m_local_stores, m_bank_conflict_cycles,
        m_icache_hits, m_icache_misses, m_const_hits, m_const_misses, m_fp64_insts, m_sfu_insts;
    std::array<sim::Counter, static_cast<size_t>(IssueOutcome::Count)> m_outcomes;
    // Sleep accounting: an SM asleep with CTAs resident keeps the state of its last tick, so
    // each slept cycle repeats that tick's issue outcomes (per scheduler) and is an active cycle.
    uint64_t m_last_tick = 0;
    bool m_resident_after_tick = false;
    std::vector<IssueOutcome> m_last_outcome;      ///< per scheduler, at the last tick
    std::vector<const KernelLaunch*> m_last_charged;  ///< per scheduler: kernel charged (or null)
};

}  // namespace stacksim::core
