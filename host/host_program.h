// SPDX-License-Identifier: Apache-2.0
// The simulated host CPU: runs a workload's host program on one SystemC thread.
#pragma once
#include <array>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "core/kernel.h"
#include "core/kernel_launch.h"
#include "core/sm_config.h"
#include "memory/gmmu.h"
#include "memory/pcie_link.h"
#include "sched/cta_dispatcher.h"
#include "sim/clock_domain.h"
#include "sim/sparse_memory.h"
#include "workloads/host_api.h"
#include "workloads/workload.h"

namespace stacksim::host {

/// Per-launch record for the summary and stats.
struct KernelRecord {
    std::string name;
    uint64_t start_cycle = 0, end_cycle = 0;
    uint64_t ctas = 0;
    uint64_t warp_instructions = 0;
    std::array<uint64_t, 8> issue_outcomes{};  ///< scheduler slots by outcome (core::IssueOutcome)
};

/// Implements the host API: malloc/memcpy act on the functional device memory at once;
/// launch() hands the kernel to the CTA dispatcher and waits for it in simulated time.
class HostProgram : public sc_core::sc_module, public workloads::HostApi {
public:
    SC_HAS_PROCESS(HostProgram);
    /// `ptx_dir`: if not empty, PTX files are read from there before the embedded library.
    /// `instructions`: returns the total warp instructions issued so far (for per-kernel counts).
    /// `pcie`: copies cross this link (timed); null = copies are instantaneous.
    HostProgram(sc_core::sc_module_name name, workloads::Workload& workload,
                sched::CtaDispatcher& dispatcher, sim::ClockDomain& core_clock,
                const core::SmConfig& sm_cfg, std::string ptx_dir,
                std::function<uint64_t()> instructions, memory::PcieLink* pcie);

    workloads::DevPtr malloc(uint64_t bytes) override;
    workloads::DevPtr malloc_managed(uint64_t bytes) override;
    void free(workloads::DevPtr p) override;
    void memcpy_h2d(workloads::DevPtr dst, const void* src, uint64_t bytes) override;
    void memcpy_d2h(void* dst, workloads::DevPtr src, uint64_t bytes) override;
    void memset(workloads::DevPtr dst, uint8_t value, uint64_t bytes) override;
    void launch(const std::string& ptx_file, const std::string& entry, workloads::Dim3 grid,
                workloads::Dim3 block, const workloads::LaunchArgs& args,
                uint32_t dynamic_shared_bytes) override;
    void launch_ptx_source(const std::string& source_name, const std::string& ptx_text,
                           const std::string& entry, workloads::Dim3 grid, workloads::Dim3 block,
                           const workloads::LaunchArgs& args, uint32_t dynamic_shared_bytes) override;
    void launch_trace(const core::TraceKernel& kernel) override;

    /// Unified memory: allocations are registered with `gmmu` (managed pages start on the
    /// host; host accesses to pages on the GPU migrate them back over PCIe). `free_copies`:
    /// memcpy costs no time (the ideal mode).
    void set_gmmu(memory::Gmmu* gmmu, bool free_copies) {
        m_gmmu = gmmu;
        m_free_copies = free_copies;
    }
    bool finished() const { return m_finished; }
    /// The exception the host program ended with, if any.
    std::exception_ptr failure() const { return m_failure; }
    const std::vector<KernelRecord>& kernels() const { return m_records; }
    /// Simulated time spent in host-to-device and device-to-host copies, ps.
    uint64_t copy_ps() const { return m_copy_ps; }
    sim::SparseMemory& device_memory() { return m_memory; }

private:
    void thread();
    const core::Module& module(const std::string& ptx_file);
    const core::Module& parse_module(const std::string& key, const std::string& text, const std::string& shown);
    void launch_kernel(const core::Module& mod, const std::string& source, const std::string& entry,
                       workloads::Dim3 grid, workloads::Dim3 block, const workloads::LaunchArgs& args,
                       uint32_t dynamic_shared_bytes);
    void run_launch(std::unique_ptr<core::KernelLaunch> launch, const std::string& name);
    void check_range(workloads::DevPtr p, uint64_t bytes, const char* what) const;

    workloads::Workload& m_workload;
    sched::CtaDispatcher& m_dispatcher;
    sim::ClockDomain& m_clock;
    core::SmConfig m_sm_cfg;
    std::string m_ptx_dir;
    std::function<uint64_t()> m_instructions;
    memory::PcieLink* m_pcie;
    memory::Gmmu* m_gmmu = nullptr;
    bool m_free_copies = false;
    /// Managed memory: migrates back the pages of [p, p + bytes) that are on the GPU.
    void host_touch(workloads::DevPtr p, uint64_t bytes);
    uint64_t m_copy_ps = 0;
    void timed_copy(memory::Direction d, uint64_t bytes);
    sim::SparseMemory m_memory;
    struct Allocation {
        uint64_t bytes;
        bool managed;  ///< demand paged: host accesses migrate it back, memcpy is not a PCIe copy
    };
    workloads::DevPtr allocate(uint64_t bytes, bool managed);
    bool is_managed(workloads::DevPtr p) const;
    std::map<workloads::DevPtr, Allocation> m_allocations;
    uint64_t m_next_alloc = 0x1000'0000;
    std::map<std::string, std::unique_ptr<core::Module>> m_modules;
    std::vector<std::unique_ptr<core::KernelLaunch>> m_launches;
    std::vector<KernelRecord> m_records;
    sc_core::sc_event m_kernel_done;
    bool m_finished = false;
    std::exception_ptr m_failure;
};

}  // namespace stacksim::host
