// SPDX-License-Identifier: Apache-2.0
// Opt-in event stream of an SM, for timelines and per-warp watch logs (teaching).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/instruction.h"

namespace stacksim::core {

struct KernelLaunch;
struct ExecResult;

/// What happened. Masks are lane bit masks (bit i = lane i).
enum class SmEventKind : uint8_t {
    CtaStart, CtaEnd, Fetch, Issue, Stall, Diverge, Reconverge, BarrierArrive, BarrierRelease, WarpExit,
    CtaSaved,     ///< a preempted CTA's context is written out (since: the preemption request)
    CtaRestored,  ///< a resumed CTA's context is read back (since: the restore start)
    CtaFlushed,   ///< a preempted CTA was dropped to restart later (since: the request)
};

/// One event. `reason` is an IssueOutcome for Stall events.
struct SmEvent {
    SmEventKind kind;
    uint64_t cycle;
    uint32_t sm;
    uint32_t warp;        ///< warp slot (CtaStart/CtaEnd: CTA slot)
    uint64_t cta;         ///< CTA index in its grid
    uint32_t pc = 0;      ///< Issue/Fetch/Diverge: instruction; Reconverge: where
    uint32_t mask = 0;    ///< active lanes (Diverge: taken lanes)
    uint32_t other = 0;   ///< Diverge: not-taken lanes; Reconverge: lanes rejoined; Fetch: count
    uint32_t reconv = 0;  ///< Diverge: reconvergence PC
    uint8_t reason = 0;   ///< Stall: core::IssueOutcome
    const Instruction* inst = nullptr;
    uint64_t since = 0;   ///< CtaSaved/CtaRestored/CtaFlushed: when the operation began
    const char* kernel = nullptr;  ///< CTA events and a used warp's events: the kernel's name
    uint32_t depth = 0;   ///< per-warp events: SIMT stack entries (Diverge/Reconverge: after the change)
    /// A used warp's events of a PTX kernel: its `.file` table (Kernel::source_files), which
    /// inst->src_file indexes; null for traces.
    const std::vector<std::string>* source_files = nullptr;

    /// "file:line" of `inst` in the CUDA source (`nvcc -lineinfo` builds), or "" when unknown.
    std::string source_line() const {
        if (!inst || inst->src_line == 0 || !source_files || inst->src_file >= source_files->size()) return "";
        return (*source_files)[inst->src_file] + ":" + std::to_string(inst->src_line);
    }
};

/// One executed warp instruction of a PTX kernel (not of a replayed trace), after its functional
/// step: what a trace exporter records.
struct ExecutedInstruction {
    uint32_t sm = 0;
    uint32_t warp = 0;              ///< warp slot
    const KernelLaunch* launch = nullptr;
    std::array<uint32_t, 3> cta{};  ///< CTA coordinates in the grid
    uint32_t warp_in_cta = 0;
    uint32_t pc = 0;                ///< instruction index in the kernel
    uint32_t simt_mask = 0;         ///< SIMT-active lanes (predication aside)
    const Instruction* inst = nullptr;
    const ExecResult* result = nullptr;  ///< executing lanes (guard true), memory space and addresses
};

/// Receives an SM's events. Watching costs nothing when no observer is attached.
class SmObserver {
public:
    virtual ~SmObserver() = default;
    /// Whether per-warp events (fetch, issue, stalls, divergence) of this warp slot are wanted.
    virtual bool watches(uint32_t sm, uint32_t warp) const = 0;
    virtual void on_event(const SmEvent& e) = 0;
    /// Each executed instruction of a watched warp of a PTX kernel; ignored unless overridden.
    virtual void on_execute(const ExecutedInstruction&) {}
};

}  // namespace stacksim::core
