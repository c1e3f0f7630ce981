// SPDX-License-Identifier: Apache-2.0
// The synthetic workload: generate PTX from a config + seed, launch it, verify every output.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workloads/library/library_workload.h"
#include "workloads/synthetic/cpu_model.h"
#include "workloads/synthetic/program.h"
#include "workloads/synthetic/synthetic_config.h"

namespace stacksim::workloads {

/// A generated kernel run through HostApi::launch_ptx_source (twice for `reuse`, the second
/// launch reading the first one's results) and checked against run_cpu_model().
class SyntheticWorkload final : public LibraryWorkload {
public:
    /// `threads` = active threads (0: grid * block from the config), at most 65535 CTAs of
    /// cfg.block. Checks `cfg` (SyntheticConfig::check); throws sim::InputError for a size
    /// out of range.
    SyntheticWorkload(const SyntheticConfig& cfg, uint32_t threads, uint64_t seed);

    const SynthProgram& program() const { return m_program; }
    const std::string& ptx() const { return m_ptx; }
    /// The input array of the first launch (footprint_words seeded words).
    const std::vector<uint32_t>& input() const { return m_in; }

private:
    void execute(Device& dev) override;
    void compare(Checker& check) const override;

    SynthProgram m_program;
    std::string m_ptx;
    std::vector<uint32_t> m_in;
    std::vector<SynthOutputs> m_got;  ///< per launch, downloaded by run()
};

}  // namespace stacksim::workloads
