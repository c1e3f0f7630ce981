// SPDX-License-Identifier: Apache-2.0
// The CTA lifecycle of one SM: slots, start/finish, context save and restore, flush, checkpoints.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/cta_port.h"
#include "core/cta_status.h"
#include "core/functional_executor.h"
#include "core/kernel_launch.h"
#include "core/sm_config.h"
#include "core/sm_observer.h"
#include "core/sm_pipeline.h"
#include "core/warp.h"
#include "sim/clock_domain.h"
#include "sim/stats.h"

namespace stacksim::core {

/// Owns an SM's CTA slots and their resources (threads, registers, shared memory), starts and
/// finishes CTAs, and carries out preemption orders: context switch (stop, drain, save through
/// memory), flush, PEP checkpoints with dirty tracking and in-place saves, restore. It reaches
/// the pipeline only through SmPipeline; the SM calls it when a warp is freed, an instruction
/// issues, a shared store executes and a context response returns, and steps it each tick
/// while a preemption or checkpoint is in progress. The schedulers reach it only through its
/// command port (receive(), core/cta_port.h) and its status (CtaStatus); it reports on
/// `events` when a CTA finished, was saved, flushed or checkpointed. Stats under the SM's name
/// (`ctas_completed`, `preemption.*`).
class CtaManager : public CtaStatus, public sim::MessageSink<CtaCommand> {
public:
    CtaManager(uint32_t sm_id, const SmConfig& cfg, sim::ClockDomain& clock, SmPipeline& pipeline,
               sim::StatRegistry& stats, const std::string& prefix);

    /// Finished / Saved / Flushed / Checkpointed, sent when it happens (inside the SM's tick
    /// or the command that caused it).
    CtaEventPort events;

    /// Carries out a command at once (zero delay).
    void receive(CtaCommand& c) override;
    bool can_accept(const KernelLaunch& launch) const override;
    std::vector<ResidentCta> resident_ctas() const override;
    bool only_runs(const KernelLaunch& launch) const override;
    uint32_t sm_id() const override { return m_id; }
    KernelTally tally(const KernelLaunch& launch) const override;

    void set_observer(SmObserver* o) { m_observer = o; }
    /// SMs of the GPU, for %nsmid.
    void set_num_sms(uint32_t n) { m_num_sms = n; }

    // The pipeline's side.
    CtaSlot& cta(uint32_t slot) { return m_ctas[slot]; }
    const CtaSlot& cta(uint32_t slot) const { return m_ctas[slot]; }
    /// Changes whenever a CTA or its warps may have changed state (a command, step(), a freed
    /// warp, a context response): the SM's issue memo is valid only within one epoch.
    uint64_t epoch() const { return m_epoch; }
    /// CTAs resident (running, stopping, saving, flushing or restoring).
    uint32_t running() const { return m_ctas_running; }
    /// Whether step() has work: a checkpoint is due or a CTA is being taken off.
    bool needs_step() const { return m_checkpoint_due || m_preempting; }
    /// Starts due first checkpoints, then moves drained CTAs on to their save or flush.
    void step() {
        ++m_epoch;
        if (m_checkpoint_due) start_due_checkpoints();
        if (m_preempting) progress_preemption();
    }
    /// Warp `w` issued `inst`: its CTA's progress and dirty registers.
    void count_instruction(Warp& w, const Instruction& inst) {
        CtaSlot& cta = m_ctas[w.cta_slot];
        ++cta.warp_instructions;
        ++cta.tally->warp_instructions;
        for (unsigned i = 0; i < inst.num_writes; ++i) mark_register(w.dirty, inst.writes[i]);
        if (cta.ckpt.checkpoint_at == cta.warp_instructions) m_checkpoint_due = true;
    }
    /// A shared-memory access of CTA slot `cta` executed (dirty blocks, when tracked).
    void shared_access(uint32_t cta, const ExecResult& r) {
        if (m_track_shared && (r.is_store || r.is_atomic)) mark_shared_stores(m_ctas[cta], r);
    }
    /// The last warp of CTA slot `cta` has been freed by the pipeline, or one of its warps.
    void warp_freed(uint32_t cta);
    /// A context save/restore line of CTA slot `cta` came back.
    void context_response(uint32_t cta);
    /// This SM's tally of `launch`, or null when it has none (never ran it, or forgot it).
    KernelTally* find_tally(const KernelLaunch* launch);

private:
    void start_cta(KernelLaunch& launch, uint64_t cta_index);
    void restore_cta(KernelLaunch& launch, std::unique_ptr<SavedCta> saved);
    void preempt_cta(uint32_t slot, PreemptTechnique t);
    void checkpoint_cta(uint32_t slot, const CheckpointOrder& o);
    void arm_checkpoints(uint64_t instructions, CheckpointCounters* c);
    void report(CtaEvent e);
    uint32_t take_slot();
    /// This SM's tally of `launch`, made on first use.
    KernelTally* tally_of(const KernelLaunch& launch);
    void forget_kernel(const KernelLaunch& launch);
    void emit(SmEventKind kind, uint32_t slot);
    // Preemption (cta_manager_preemption.cpp).
    uint64_t context_bytes(const CtaSlot& cta) const;
    void progress_preemption();
    void queue_context(uint32_t slot, sim::MemAccess access);
    void context_done(uint32_t slot);
    void release_cta(uint32_t slot);
    void finish_save(uint32_t slot);
    void finish_flush(uint32_t slot);
    void stop_cta(uint32_t slot, bool switch_out);
    /// A context write of `slot` (full save or checkpoint) begins now.
    void begin_context_write(CtaSlot& cta);
    // PEP checkpoints (cta_checkpoints.cpp).
    void reset_checkpoints(CtaSlot& cta);
    void mark_shared_stores(CtaSlot& cta, const ExecResult& r);
    uint64_t checkpoint_bytes(uint32_t slot, bool saved) const;
    void start_checkpoint_save(uint32_t slot);
    void finish_checkpoint(uint32_t slot);
    void start_due_checkpoints();

    uint32_t m_id;
    uint32_t m_num_sms = 1;
    const SmConfig& m_cfg;
    sim::ClockDomain& m_clock;
    SmPipeline& m_pipe;
    SmObserver* m_observer = nullptr;

    std::vector<CtaSlot> m_ctas;
    /// Per-kernel tallies of this SM, for kernels with CTAs here since their launch (few:
    /// entries are dropped at ForgetKernel); stable addresses, CtaSlot::tally points in.
    std::vector<std::pair<const KernelLaunch*, std::unique_ptr<KernelTally>>> m_tallies;
    uint32_t m_threads_used = 0, m_regs_used = 0, m_smem_used = 0, m_ctas_running = 0;
    uint64_t m_warp_age = 0;
    uint64_t m_epoch = 0;           ///< epoch()
    uint32_t m_preempting = 0;      ///< CTAs stopping, saving or flushing
    bool m_checkpoint_due = false;  ///< a CTA reached its ckpt.checkpoint_at
    uint64_t m_arm_at = 0;          ///< arm_checkpoints()
    CheckpointCounters* m_arm_counters = nullptr;
    uint64_t m_inplace_left = 0;    ///< set_inplace_budget()
    bool m_track_shared = false;    ///< track_shared_stores()

    sim::Counter m_ctas_done, m_ctas_switched, m_ctas_flushed, m_ctas_restored, m_context_saved,
        m_context_restored, m_save_cycles, m_restore_cycles, m_flushed_instructions, m_flushed_cycles;
    // The parts of a save (switches and checkpoints): stop order -> pipeline drained -> written.
    sim::Counter m_context_writes, m_pipeline_drain_cycles, m_context_write_cycles;
};

}  // namespace stacksim::core
