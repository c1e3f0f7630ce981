// SPDX-License-Identifier: Apache-2.0
// `stacksim trace export`: a PTX run recorded as an Accel-Sim trace (kernelslist.g + .traceg).
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/sm_observer.h"

namespace stacksim::sim {
class StagedDirectory;
}

namespace stacksim::top {

/// Records every executed warp instruction of the PTX kernels of a run and writes them as an
/// Accel-Sim trace, tracer version 4, binary version 70 (Volta's SASS table): one line per
/// dynamic warp instruction in the reader's grammar (docs/accelsim-traces.md). Each PTX
/// instruction becomes one SASS opcode of the same pipeline (add.f32 -> FADD, ld.global ->
/// LDG.E, bar.sync -> BAR.SYNC, ...); PTX virtual register n is written R(n mod 255).
/// Masks: memory instructions and EXIT carry the lanes that executed (guard true), as the
/// NVBit tracer writes them; other instructions carry the SIMT-active lanes, so a replay counts
/// the thread instructions the PTX run counts. Held in memory until the run ends.
class TraceExporter : public core::SmObserver {
public:
    bool watches(uint32_t, uint32_t) const override { return true; }
    void on_event(const core::SmEvent& e) override;
    void on_execute(const core::ExecutedInstruction& e) override;

    /// Writes kernelslist.g and kernel-N.traceg (N = launch order from 1) into `out`; returns a
    /// one-line description ("2 kernels, 1234 warp instructions"). Throws InputError when a CTA
    /// was flushed by preemption (it would appear twice), SimulationError when nothing was recorded.
    std::string write(sim::StagedDirectory& out) const;

    /// SASS opcode written for a PTX instruction with this execution result.
    static std::string sass_opcode(const core::Instruction& inst, const core::ExecResult& r);

private:
    struct Kernel {
        std::string name;
        std::array<uint32_t, 3> grid{}, block{};
        uint32_t shared_bytes = 0, regs = 0;
        std::map<uint64_t, std::vector<std::string>> ctas;  ///< linear CTA index -> per-warp lines
        std::map<uint64_t, std::vector<uint64_t>> counts;    ///< instructions per warp
    };
    std::map<uint32_t, Kernel> m_kernels;  ///< by launch id
    uint64_t m_instructions = 0;
    std::string m_flushed;  ///< the first CTA flushed by preemption, "" if none
};

}  // namespace stacksim::top
