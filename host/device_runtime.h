// SPDX-License-Identifier: Apache-2.0
// The GPU as every application's host program sees it: device memory, copies, kernel modules.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/kernel.h"
#include "core/kernel_launch.h"
#include "core/sm_config.h"
#include "host/kernel_record.h"
#include "memory/gmmu.h"
#include "memory/pcie_link.h"
#include "sim/clock_domain.h"
#include "sim/sparse_memory.h"
#include "workloads/host_api.h"

namespace stacksim::core {
struct TraceKernel;
}

namespace stacksim::host {

/// State shared by the host programs of all applications on one GPU: the functional device
/// memory and its allocations, the PCIe link (copies are timed, called from a host thread),
/// unified memory, the parsed PTX modules, and the record of finished kernels.
class DeviceRuntime {
public:
    /// `ptx_dir`: if not empty, PTX files are read from there before the embedded library.
    /// `pcie`: copies cross this link (timed); null = copies are instantaneous.
    DeviceRuntime(const core::SmConfig& sm_cfg, std::string ptx_dir, sim::ClockDomain& core_clock,
                  memory::PcieLink* pcie);

    /// Unified memory: allocations are registered with `gmmu` (managed pages start on the
    /// host; host accesses to pages on the GPU migrate them back over PCIe). `free_copies`:
    /// memcpy costs no time (the ideal mode).
    void set_gmmu(memory::Gmmu* gmmu, bool free_copies) {
        m_gmmu = gmmu;
        m_free_copies = free_copies;
        if (gmmu) gmmu->set_data(&m_memory);
    }

    workloads::DevPtr malloc(uint64_t bytes);
    workloads::DevPtr malloc_managed(uint64_t bytes);
    void free(workloads::DevPtr p) { m_allocations.erase(p); }
    /// Copies and memset; call from a host SystemC thread (timed copies wait).
    void memcpy_h2d(workloads::DevPtr dst, const void* src, uint64_t bytes);
    void memcpy_d2h(void* dst, workloads::DevPtr src, uint64_t bytes);
    void memset(workloads::DevPtr dst, uint8_t value, uint64_t bytes);
    /// Device-to-device copy: functional only (it does not cross PCIe).
    void memcpy_d2d(workloads::DevPtr dst, workloads::DevPtr src, uint64_t bytes);

    /// Asynchronous copies (HostApi::memcpy_h2d_async and friends). True when [p, p + bytes)
    /// lies in one allocation that is not managed: such copies move bytes without paging, so
    /// they can run as stream commands; a copy involving managed memory stays synchronous.
    bool plain_range(workloads::DevPtr p, uint64_t bytes) const;
    /// Starts the PCIe transfer of an asynchronous copy of `bytes` in direction `d` and returns
    /// the link's completion event (`*done_ps` is set when it completes, see
    /// PcieLink::start_copy); null when copies cost no time (no link, or ideal unified memory):
    /// the copy is then complete at once. Each non-null start is ended by end_async_copy().
    sc_core::sc_event* start_async_copy(memory::Direction d, uint64_t bytes, uint64_t* done_ps);
    /// A transfer started by start_async_copy (or a timed copy) has completed (copy-time accounting).
    void end_async_copy();
    /// cudaMemPrefetchAsync to the GPU: the managed pages of [p, p + bytes) start migrating
    /// (Gmmu::prefetch_range); nothing for other memory or without demand paging.
    void prefetch_to_device(workloads::DevPtr p, uint64_t bytes) {
        if (m_gmmu && !m_free_copies && is_managed(p)) m_gmmu->prefetch_range(p, bytes);
    }

    /// A launch of `entry` of the library file `ptx_file` (or of PTX text when `source` is set),
    /// checked (parameters, shape, occupancy). Throws sim::InputError naming the file.
    std::unique_ptr<core::KernelLaunch> make_launch(const std::string& ptx_file, const std::string* source,
                                                    const std::string& entry, workloads::Dim3 grid,
                                                    workloads::Dim3 block, const workloads::LaunchArgs& args,
                                                    uint32_t dynamic_shared_bytes);
    /// Makes `launch` cooperative: checks that its whole grid fits on the GPU at once and gives
    /// it a zeroed grid-barrier workspace (256 bytes of device memory, kept for the run).
    /// Throws sim::InputError when the grid is too large.
    void make_cooperative(core::KernelLaunch& launch);
    /// Texture objects (HostApi::create_texture_object / destroy_texture_object).
    uint64_t create_texture_object(const core::TextureDesc& desc);
    void destroy_texture_object(uint64_t handle) { m_textures.erase(handle); }
    /// SMs of the GPU (cooperative launch limit).
    void set_num_sms(uint32_t n) { m_num_sms = n; }
    /// A launch of a traced kernel.
    std::unique_ptr<core::KernelLaunch> make_trace_launch(const core::TraceKernel& kernel);

    /// Module-scope variables (__device__ / __constant__ data) of the library file or PTX source
    /// `module`: the device address of `symbol` (allocated and initialised when the module is
    /// loaded if a kernel uses it, else on this first host access) and its size in bytes.
    /// Throws sim::InputError for an unknown module or symbol.
    std::pair<workloads::DevPtr, uint64_t> symbol(const std::string& module, const std::string& symbol);
    /// Parses and loads PTX text as the source module `name` (as launch_ptx_source would).
    void load_source(const std::string& name, const std::string& text) { parse_module("source:" + name, text, name); }

    sim::SparseMemory& device_memory() { return m_memory; }
    sim::ClockDomain& clock() { return m_clock; }
    /// Simulated time during which some host-to-device or device-to-host copy was in flight, ps
    /// (the union of the copies' intervals: overlapping copies count once).
    uint64_t copy_ps() const { return m_copy_ps; }
    /// Finished kernels, in finishing order.
    const std::vector<KernelRecord>& kernels() const { return m_records; }
    void add_record(const KernelRecord& r) { m_records.push_back(r); }

private:
    const core::Module& module(const std::string& ptx_file);
    const core::Module& parse_module(const std::string& key, const std::string& text, const std::string& shown);
    void check_range(workloads::DevPtr p, uint64_t bytes, const char* what) const;
    workloads::DevPtr place_variable(const core::ModuleVariable& v, const std::string& shown);
    /// Device address of each module's variables (0: not placed yet), by module.
    std::map<const core::Module*, std::vector<workloads::DevPtr>> m_variable_addr;
    workloads::DevPtr allocate(uint64_t bytes, bool managed);
    bool is_managed(workloads::DevPtr p) const;
    /// Managed memory: migrates back the pages of [p, p + bytes) that are on the GPU; `writes`:
    /// the host then writes the bytes (they hold host data from now on).
    void host_touch(workloads::DevPtr p, uint64_t bytes, bool writes);
    void timed_copy(memory::Direction d, uint64_t bytes);
    /// A copy starts (copy-time accounting; end_async_copy() ends it).
    void copy_begins();

    core::SmConfig m_sm_cfg;
    uint32_t m_num_sms = 1;
    core::TextureTable m_textures;
    uint64_t m_next_texture = 1;
    std::string m_ptx_dir;
    sim::ClockDomain& m_clock;
    memory::PcieLink* m_pcie;
    memory::Gmmu* m_gmmu = nullptr;
    bool m_free_copies = false;
    uint64_t m_copy_ps = 0;
    unsigned m_copies_in_flight = 0;
    uint64_t m_copy_busy_since = 0;  ///< ps, when the copies in flight began
    sim::SparseMemory m_memory;
    struct Allocation {
        uint64_t bytes;
        bool managed;  ///< demand paged: host accesses migrate it back, memcpy is not a PCIe copy
    };
    std::map<workloads::DevPtr, Allocation> m_allocations;
    uint64_t m_next_alloc = 0x1000'0000;
    std::map<std::string, std::unique_ptr<core::Module>> m_modules;
    uint32_t m_launches = 0;
    /// Code identity of each kernel launched so far (PTX file and entry, or traced kernel name).
    std::map<std::string, uint32_t> m_code_ids;
    uint32_t code_id(const std::string& key);
    std::vector<KernelRecord> m_records;
};

}  // namespace stacksim::host
