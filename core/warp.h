// SPDX-License-Identifier: Apache-2.0
// Timing and functional state of one warp slot and one CTA slot of an SM.
#pragma once
#include <array>
#include <cstdint>

#include "core/checkpoint.h"
#include "core/exec_context.h"
#include "core/scoreboard.h"
#include "core/simt_stack.h"
#include "core/trace_kernel.h"

namespace stacksim::core {

struct KernelLaunch;

/// Fetched, decoded instructions of one warp waiting to issue (consecutive PCs).
class InstructionBuffer {
public:
    static constexpr unsigned kMaxEntries = 16;
    /// `changes` (may be null) is incremented whenever entries leave (pop, flush) or are
    /// replaced (assignment): room to fetch into may have appeared (the SM's fetch skips its
    /// scan while nothing has changed).
    void count_changes(uint64_t* changes) { m_changes = changes; }
    InstructionBuffer() = default;
    /// A copy holds the entries, not the counter: the counter belongs to the SM's warp slot,
    /// and a warp saved on one SM may be restored into another's slot (assignment).
    InstructionBuffer(const InstructionBuffer& o)
        : m_pc(o.m_pc), m_ready(o.m_ready), m_head(o.m_head), m_count(o.m_count) {}
    InstructionBuffer& operator=(const InstructionBuffer& o) {
        m_pc = o.m_pc;
        m_ready = o.m_ready;
        m_head = o.m_head;
        m_count = o.m_count;
        if (m_changes) ++*m_changes;
        return *this;
    }
    void flush() {
        m_count = 0;
        if (m_changes) ++*m_changes;
    }
    bool empty() const { return m_count == 0; }
    unsigned size() const { return m_count; }
    uint32_t head_pc() const { return m_pc[m_head]; }
    uint64_t head_ready() const { return m_ready[m_head]; }
    /// PC the next fetched instruction must have.
    uint32_t next_pc() const { return m_pc[(m_head + m_count - 1) % kMaxEntries] + 1; }
    void push(uint32_t pc, uint64_t ready_cycle) {
        unsigned i = (m_head + m_count) % kMaxEntries;
        m_pc[i] = pc;
        m_ready[i] = ready_cycle;
        ++m_count;
    }
    /// Queued entries become ready no earlier than `cycle` (nanosleep).
    void delay_until(uint64_t cycle) {
        for (unsigned k = 0; k < m_count; ++k) {
            uint64_t& r = m_ready[(m_head + k) % kMaxEntries];
            if (r < cycle) r = cycle;
        }
    }
    void pop() {
        m_head = (m_head + 1) % kMaxEntries;
        --m_count;
        if (m_changes) ++*m_changes;
    }

private:
    uint64_t* m_changes = nullptr;
    std::array<uint32_t, kMaxEntries> m_pc{};
    std::array<uint64_t, kMaxEntries> m_ready{};
    unsigned m_head = 0, m_count = 0;
};

/// One warp slot.
struct Warp {
    bool used = false;
    bool finished = false;     ///< every thread exited (slot freed once pending_mem is 0)
    bool at_barrier = false;
    uint32_t cta_slot = 0;
    uint32_t generation = 0;   ///< bumped on reuse; stale writebacks are ignored
    uint64_t age = 0;
    uint32_t fetch_pc = 0;     ///< next PC to fetch when the I-buffer is empty
    uint32_t pending_mem = 0;  ///< memory requests in flight
    uint32_t pending_loads = 0;  ///< global loads/atomics with results outstanding
    uint64_t sleep_until = 0;  ///< nanosleep: its I-buffer entries are ready no earlier
    /// icache_fill = memory: the I-cache line (code-space address) whose fill this warp waits
    /// for before it fetches again; kNoLine when none.
    uint64_t fetch_wait_line = kNoLine;
    static constexpr uint64_t kNoLine = ~uint64_t{0};
    const std::vector<Instruction>* code = nullptr;  ///< PTX mode: the kernel's code
    const WarpTrace* trace = nullptr;                ///< trace mode: this warp's stream
    uint32_t code_size = 0;                          ///< instructions (PTX) or trace entries
    WarpExecContext ctx;
    SimtStack stack;  ///< PTX: reconvergence stack; trace: a cursor (pc = trace index)
    Scoreboard scoreboard;
    InstructionBuffer ibuffer;
    RegisterMask dirty{};  ///< registers written since the warp started or the CTA's last checkpoint
    RegisterMask saved{};  ///< registers in some checkpoint of the CTA (restored from memory)

    /// The static instruction at `pc`.
    const Instruction& inst(uint32_t pc) const { return trace ? *trace->insts[pc].inst : (*code)[pc]; }
};

/// Where a CTA slot is in its life.
enum class CtaState : uint8_t {
    Running,
    Stopping,   ///< preempted: issue and fetch stopped, waiting for its pipeline to drain
    Saving,     ///< its context is being written to the context area
    Flushing,   ///< dropped: waiting for its memory requests in flight to return
    Restoring,  ///< resumed: its context is being read back; it does not issue yet
};

/// One CTA slot.
struct CtaSlot {
    bool used = false;
    KernelLaunch* launch = nullptr;
    uint64_t cta_index = 0;
    uint32_t warps_total = 0;   ///< warps not yet freed
    uint32_t warps_live = 0;    ///< warps not finished
    uint32_t barrier_arrived = 0;
    uint32_t registers = 0;     ///< held, for release
    uint64_t start_cycle = 0;   ///< when it (last) started or resumed on this SM
    uint64_t prior_cycles = 0;  ///< resident cycles on SMs before a context switch
    uint64_t warp_instructions = 0;  ///< issued by its warps (across switches)
    KernelTally* tally = nullptr;    ///< this SM's tally of its kernel (CtaManager::tally_of)
    CtaState state = CtaState::Running;
    bool switch_out = false;         ///< Stopping for a context switch (else for a flush)
    uint32_t context_outstanding = 0;  ///< context save/restore requests not yet answered
    uint64_t context_bytes = 0;      ///< saved or being restored
    uint64_t context_addr = 0;       ///< where its context was saved
    uint64_t preempt_cycle = 0;      ///< when the preemption (or restore) began
    uint64_t write_cycle = 0;        ///< when its current context write began (pipeline drained)
    CtaExecContext ctx;
    CtaCheckpoints ckpt;             ///< PEP checkpoints (core/sm_checkpoint.cpp)
};

}  // namespace stacksim::core
